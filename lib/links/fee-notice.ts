import { formatAmount, parseAmount } from "@/lib/money/amount";
import type { Currency } from "@/lib/money/currencies";
import { applyFeeRule, readShownRule, type ShownFeeRule, settle } from "@/lib/money/fees";

/**
 * What a payment link's start page tells the customer about fees before checkout, safe for the browser
 * bundle. The fee depends on how the customer pays (card has its own rule; bank transfer, bank payment and
 * USSD share one), so the page lists one line per group of channels the link offers, computed with the same
 * rules initialize will charge. Rules are shown as merchants see them: a percentage and major-unit strings.
 */
export type { ShownFeeRule };
export type FeeGroup = { channels: string[]; rule: ShownFeeRule };
export type LinkPricing = { merchantBearsCost: boolean; groups: FeeGroup[] };

export type FeeQuote = { channels: string[]; fee: string; total: string };

/**
 * What the customer pays on each group of channels for `amount` (a decimal string), or null when the amount
 * is not a valid one (yet). With the merchant bearing the cost every total is the amount, no fee added.
 */
export function quoteFees(pricing: LinkPricing, amount: string, currency: Currency): FeeQuote[] | null {
  const parsed = parseAmount(amount, currency);
  if (!parsed.ok) return null;
  const quotes: FeeQuote[] = [];
  for (const group of pricing.groups) {
    const rule = readShownRule(group.rule, currency);
    if (!rule) return null;
    const { totalMinor } = settle(parsed.minor, applyFeeRule(parsed.minor, rule), pricing.merchantBearsCost);
    quotes.push({
      channels: group.channels,
      // The customer's part of the fee: none when the merchant bears it.
      fee: formatAmount(totalMinor - parsed.minor, currency),
      total: formatAmount(totalMinor, currency),
    });
  }
  return quotes;
}
