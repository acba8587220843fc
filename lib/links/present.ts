import type { Selectable } from "kysely";
import { type PaymentLinksTable, toMillis, toMinor } from "@/lib/db/schema";
import { env } from "@/lib/env";
import { formatAmount } from "@/lib/money/amount";
import type { Currency } from "@/lib/money/currencies";
import { feeRuleOf, feeScheduleFor, presentRule } from "@/lib/money/fees";
import { channelServes, parseChannels } from "@/lib/payments/channel-list";
import type { FeeGroup, LinkPricing } from "./fee-notice";
import type { FormFieldInput } from "./schemas";

type Row = Selectable<PaymentLinksTable>;

const money = (v: Row["amount_minor"], currency: Currency) =>
  v === null ? null : formatAmount(toMinor(v), currency);
const iso = (v: Row["expires_at"]) => (v === null ? null : new Date(toMillis(v)).toISOString());

/** A payment link's address, under `base` (this deployment's, PUBLIC_BASE_URL, by default). */
export function linkUrl(slug: string, base = env().PUBLIC_BASE_URL): string {
  return `${base}/l/${slug}`;
}

export function linkFields(row: Row): FormFieldInput[] {
  return JSON.parse(row.fields) as FormFieldInput[];
}

/** Why customers cannot pay through the link now, as a key the pages word (`link.unavailable` catalogues). */
export type UnavailableKey = "inactive" | "expired" | "limit";

const UNAVAILABLE_REASON: Record<UnavailableKey, string> = {
  inactive: "This payment link has been deactivated by the merchant.",
  expired: "This payment link has expired.",
  limit: "This payment link has reached its limit of payments.",
};

/** Why customers cannot pay through the link now, or null. `used` counts payments that hold a place. */
export function unavailableKey(row: Row, used: number, now = Date.now()): UnavailableKey | null {
  if (row.active !== 1) return "inactive";
  if (row.expires_at !== null && toMillis(row.expires_at) <= now) return "expired";
  if (row.usage_limit !== null && used >= row.usage_limit) return "limit";
  return null;
}

/** The same in the API's words (English). */
export function unavailableReason(row: Row, used: number, now = Date.now()): string | null {
  const key = unavailableKey(row, used, now);
  return key ? UNAVAILABLE_REASON[key] : null;
}

/**
 * The record the merchant sees (docs/api.md, plus limits and usage); `base` as linkUrl's (the OpenAPI
 * document's examples pass a fixed example host).
 */
export function presentLink(row: Row, used: number, base?: string) {
  const currency = row.currency as Currency;
  return {
    id: row.id,
    slug: row.slug,
    paymentLinkUrl: linkUrl(row.slug, base),
    title: row.title,
    description: row.description,
    amount: money(row.amount_minor, currency),
    minAmount: money(row.min_amount_minor, currency),
    maxAmount: money(row.max_amount_minor, currency),
    currency,
    channels: parseChannels(row.channels),
    redirectUrl: row.redirect_url,
    feeBearer: row.fee_bearer,
    metadata: { fields: linkFields(row) },
    active: row.active === 1,
    expiresAt: iso(row.expires_at),
    usageLimit: row.usage_limit,
    usageCount: used,
    createdAt: new Date(toMillis(row.created_at)).toISOString(),
  };
}

/**
 * The fee rules a customer of this link meets, per group of channels (card; the others share one rule), for
 * the channels initialize will offer: the link's, narrowed to the merchant's enabled ones that take the
 * link's currency. Who bears the cost is the link's `feeBearer`, as in `payPaymentLink`.
 */
export function linkPricing(
  row: Row,
  merchant: { channels: string; fee_schedule: string | null },
): LinkPricing {
  const currency = row.currency as Currency;
  const enabled = parseChannels(merchant.channels);
  const offered = parseChannels(row.channels).filter(
    (c) => enabled.includes(c) && channelServes(c, currency),
  );
  const schedule = feeScheduleFor(currency, merchant.fee_schedule);
  const groups: FeeGroup[] = [];
  for (const rule of ["card", "transfer"] as const) {
    const channels = offered.filter((c) => feeRuleOf(c) === rule);
    if (channels.length > 0) groups.push({ channels, rule: presentRule(schedule[rule], currency) });
  }
  return { merchantBearsCost: row.fee_bearer === "merchant", groups };
}

/** What the public start page needs, nothing private. `active` means customers can pay now. */
export function presentDisplay(
  row: Row,
  used: number,
  merchant: {
    business_name: string;
    brand_color: string | null;
    logo_url: string | null;
    channels: string;
    fee_schedule: string | null;
  },
) {
  const currency = row.currency as Currency;
  const reason = unavailableReason(row, used);
  return {
    title: row.title,
    description: row.description,
    amount: money(row.amount_minor, currency),
    minAmount: money(row.min_amount_minor, currency),
    maxAmount: money(row.max_amount_minor, currency),
    currency,
    fields: linkFields(row),
    merchantName: merchant.business_name,
    brandColor: merchant.brand_color,
    logoUrl: merchant.logo_url,
    active: reason === null,
    unavailableReason: reason,
    pricing: linkPricing(row, merchant),
  };
}
