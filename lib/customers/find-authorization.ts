import type { Kysely } from "kysely";
import { AppError } from "@/lib/core/errors";
import { db } from "@/lib/db/client";
import type { Database, Mode } from "@/lib/db/schema";

/**
 * One of the merchant's saved cards in this mode, by code. Unknown, another merchant's or another mode's:
 * 404 `authorization_not_found` (they look the same: nothing says another merchant's exists).
 */
export async function findAuthorization(
  input: { merchantId: string; mode: Mode; code: string },
  executor: Kysely<Database> = db(),
) {
  const row = await executor
    .selectFrom("card_authorizations")
    .selectAll()
    .where("id", "=", input.code)
    .where("merchant_id", "=", input.merchantId)
    .where("mode", "=", input.mode)
    .executeTakeFirst();
  if (!row) {
    throw new AppError(
      "authorization_not_found",
      `authorizationCode: no saved card ${input.code} in ${input.mode} mode.`,
    );
  }
  return row;
}
