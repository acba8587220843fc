import type { Selectable } from "kysely";
import type { MerchantPricing } from "@/lib/core/principal";
import type { MerchantsTable } from "@/lib/db/schema";

/** What initialize needs of a merchant's row: its channels, who bears the cost, its own fee rules. */
export function merchantPricing(
  row: Pick<Selectable<MerchantsTable>, "channels" | "merchant_bears_cost" | "fee_schedule">,
): MerchantPricing {
  return {
    channels: row.channels,
    merchantBearsCost: row.merchant_bears_cost === 1,
    feeSchedule: row.fee_schedule,
  };
}
