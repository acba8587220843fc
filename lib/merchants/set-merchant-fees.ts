import { AppError } from "@/lib/core/errors";
import { database, db } from "@/lib/db/client";
import type { Currency } from "@/lib/money/currencies";
import {
  type CurrencyFeeChanges,
  mergeFeeOverrides,
  presentFeeSettings,
  readFeeOverrides,
} from "@/lib/money/fees";
import { presentMerchant } from "./present";

/**
 * The operator sets a merchant's own fee rules (`npm run merchant:fees`): the fees are what the gateway
 * charges, so no merchant credential can change them; merchants see them in GET /merchants/settings.
 * `fees` changes only what it names (see `mergeFeeOverrides`); `null` restores the whole default schedule;
 * undefined changes nothing and answers the schedule as it is. Payments already initialized keep their fees.
 */
export async function setMerchantFees(input: {
  merchant: string;
  fees?: Partial<Record<Currency, CurrencyFeeChanges | null>> | null;
}) {
  return db()
    .transaction()
    .execute(async (trx) => {
      // Read and write in one transaction so two changes to different currencies both land (SQLite's
      // BEGIN IMMEDIATE serialises writers; PostgreSQL locks the row).
      let query = trx
        .selectFrom("merchants")
        .select(["id", "business_name", "email", "fee_schedule"])
        .where((eb) =>
          eb.or([eb("id", "=", input.merchant), eb("email", "=", input.merchant.toLowerCase())]),
        );
      if (database().dialect === "postgres") query = query.forUpdate();
      const merchant = await query.executeTakeFirst();
      if (!merchant) {
        throw new AppError(
          "validation_error",
          `merchant: no merchant has the id or email ${input.merchant}.`,
        );
      }
      let schedule = merchant.fee_schedule;
      if (input.fees !== undefined) {
        schedule =
          input.fees === null ? null : mergeFeeOverrides(readFeeOverrides(merchant.fee_schedule), input.fees);
        await trx
          .updateTable("merchants")
          .set({ fee_schedule: schedule, updated_at: Date.now() })
          .where("id", "=", merchant.id)
          .execute();
      }
      return { merchant: presentMerchant(merchant), ...presentFeeSettings(schedule) };
    });
}
