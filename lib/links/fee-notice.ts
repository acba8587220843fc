import { formatAmount, parseAmount } from "@/lib/money/amount";
import type { Currency } from "@/lib/money/currencies";
import { parseFeeAmount, parsePercent } from "@/lib/money/fee-settings";
import { applyFeeRule, type FeeRule } from "@/lib/money/fees";

/**
 * What a payment link's start page tells the customer about fees before checkout, safe for the browser
 * bundle. The fee depends on how the customer pays (card has its own rule; bank transfer, bank payment and
 * USSD share one), so the page lists one line per group of channels the link offers, computed with the same
 * rules initialize will charge. Rules are shown as merchants see them: a percentage and major-unit strings.
 */
export type ShownFeeRule = { percent: string; flat: string; flatWaivedBelow: string; cap: string | null };
export type FeeGroup = { channels: string[]; rule: ShownFeeRule };
export type LinkPricing = { merchantBearsCost: boolean; groups: FeeGroup[] };

function toRule(rule: ShownFeeRule, currency: Currency): FeeRule | null {
  const bps = parsePercent(rule.percent);
  const flat = parseFeeAmount(rule.flat, currency);
  const waived = parseFeeAmount(rule.flatWaivedBelow, currency);
  const cap = rule.cap === null ? null : parseFeeAmount(rule.cap, currency);
  if (!bps.ok || !flat.ok || !waived.ok || (cap && !cap.ok)) return null;
  return {
    basisPoints: bps.value,
    flatMinor: flat.value,
    flatWaivedBelowMinor: waived.value,
    capMinor: cap?.ok ? cap.value : null,
  };
}

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
    const rule = toRule(group.rule, currency);
    if (!rule) return null;
    const fee = pricing.merchantBearsCost ? 0n : applyFeeRule(parsed.minor, rule);
    quotes.push({
      channels: group.channels,
      fee: formatAmount(fee, currency),
      total: formatAmount(parsed.minor + fee, currency),
    });
  }
  return quotes;
}
