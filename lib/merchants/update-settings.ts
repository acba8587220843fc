import { database, db } from "@/lib/db/client";
import { AppError } from "@/lib/http/errors";
import type { Currency } from "@/lib/money/currencies";
import { mergeFeeOverrides, readFeeOverrides, type StoredCurrencyFees } from "@/lib/money/fee-settings";
import { type Channel, serializeChannels } from "@/lib/payments/channels";
import { presentSettings } from "./present";

/** Change the merchant's checkout settings; fields left out keep their value, `null` clears brand and logo. */
export async function updateSettings(input: {
  merchantId: string;
  channels?: Channel[];
  merchantBearsCost?: boolean;
  brandColor?: string | null;
  logoUrl?: string | null;
  /** Named currencies' own rules (null: back to the default); `null` for the whole: all back to the default. */
  fees?: Partial<Record<Currency, StoredCurrencyFees | null>> | null;
}) {
  const row = await db()
    .transaction()
    .execute(async (trx) => {
      let feeSchedule: string | null | undefined;
      if (input.fees === null) feeSchedule = null;
      else if (input.fees !== undefined) {
        // Read inside the transaction that writes: two concurrent changes to different currencies both land.
        // (SQLite's BEGIN IMMEDIATE already serialises writers; PostgreSQL locks the row.)
        let query = trx.selectFrom("merchants").select("fee_schedule").where("id", "=", input.merchantId);
        if (database().dialect === "postgres") query = query.forUpdate();
        const current = await query.executeTakeFirst();
        feeSchedule = mergeFeeOverrides(readFeeOverrides(current?.fee_schedule ?? null), input.fees);
      }
      await trx
        .updateTable("merchants")
        .set({
          updated_at: Date.now(),
          ...(input.channels !== undefined && { channels: serializeChannels(input.channels) }),
          ...(input.merchantBearsCost !== undefined && {
            merchant_bears_cost: input.merchantBearsCost ? 1 : 0,
          }),
          ...(input.brandColor !== undefined && { brand_color: input.brandColor }),
          ...(input.logoUrl !== undefined && { logo_url: input.logoUrl }),
          ...(feeSchedule !== undefined && { fee_schedule: feeSchedule }),
        })
        .where("id", "=", input.merchantId)
        .execute();
      return trx.selectFrom("merchants").selectAll().where("id", "=", input.merchantId).executeTakeFirst();
    });
  if (!row) throw new AppError("invalid_session", "The merchant of this session no longer exists.");
  return presentSettings(row);
}
