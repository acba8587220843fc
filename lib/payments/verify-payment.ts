import { AppError } from "@/lib/core/errors";
import { db } from "@/lib/db/client";
import type { Mode } from "@/lib/db/schema";
import { presentVerified, VERIFIED_COLUMNS } from "./present";

/** Server verify: the merchant's own transaction in the key's mode, or 404 (another merchant's looks unknown). */
export async function verifyPayment(input: { merchantId: string; mode: Mode; reference: string }) {
  const row = await db()
    .selectFrom("transactions")
    .select(VERIFIED_COLUMNS)
    .where("reference", "=", input.reference)
    .where("merchant_id", "=", input.merchantId)
    .where("mode", "=", input.mode)
    .executeTakeFirst();
  if (!row)
    throw new AppError(
      "transaction_not_found",
      `No transaction with reference ${input.reference} in ${input.mode} mode.`,
    );
  const authorization = row.authorization_id
    ? await db()
        .selectFrom("card_authorizations")
        .selectAll()
        .where("id", "=", row.authorization_id)
        .executeTakeFirst()
    : undefined;
  return presentVerified(row, authorization ?? null);
}
