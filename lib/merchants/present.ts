import type { Selectable } from "kysely";
import { DEFAULT_DUNNING_DAYS } from "@/lib/billing/dunning";
import type { MerchantPricing } from "@/lib/core/principal";
import type { MerchantsTable } from "@/lib/db/schema";
import { presentFeeSettings } from "@/lib/money/fees";
import { parseChannels } from "@/lib/payments/channel-list";
import { parseEmbedOrigins } from "./embed-origins";

export function presentMerchant(row: Pick<Selectable<MerchantsTable>, "id" | "business_name" | "email">) {
  return { id: row.id, businessName: row.business_name, email: row.email };
}

/** What initialize needs of a merchant: its channels, who bears the cost, its own fee rules (JSON or null). */
export type { MerchantPricing };

export function presentSettings(row: Selectable<MerchantsTable>) {
  return {
    businessName: row.business_name,
    email: row.email,
    channels: parseChannels(row.channels),
    merchantBearsCost: row.merchant_bears_cost === 1,
    brandColor: row.brand_color,
    logoUrl: row.logo_url,
    embedOrigins: parseEmbedOrigins(row.embed_origins),
    dunningDays: row.dunning_days ? (JSON.parse(row.dunning_days) as number[]) : [...DEFAULT_DUNNING_DAYS],
    ...presentFeeSettings(row.fee_schedule),
  };
}
