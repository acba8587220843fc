import type { Kysely } from "kysely";
import { AppError } from "@/lib/core/errors";
import { db } from "@/lib/db/client";
import type { Database, Mode } from "@/lib/db/schema";

/** One of the merchant's subscriptions in this mode; unknown, another's or another mode's: 404. */
export async function findSubscription(
  input: { merchantId: string; mode: Mode; code: string },
  executor: Kysely<Database> = db(),
) {
  const row = await executor
    .selectFrom("subscriptions")
    .selectAll()
    .where("id", "=", input.code)
    .where("merchant_id", "=", input.merchantId)
    .where("mode", "=", input.mode)
    .executeTakeFirst();
  if (!row) {
    throw new AppError("subscription_not_found", `No subscription ${input.code} in ${input.mode} mode.`);
  }
  return row;
}
