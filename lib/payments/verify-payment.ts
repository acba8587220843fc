import { AppError } from "@/lib/core/errors";
import { db } from "@/lib/db/client";
import { type Param, prepared } from "@/lib/db/prepared";
import type { Mode } from "@/lib/db/schema";
import { presentVerified, VERIFIED_COLUMNS } from "./present";

const findTransaction = prepared((db, param: Param<{ reference: string; merchantId: string; mode: Mode }>) =>
  db
    .selectFrom("transactions")
    .select(VERIFIED_COLUMNS)
    .where("reference", "=", param("reference"))
    .where("merchant_id", "=", param("merchantId"))
    .where("mode", "=", param("mode")),
);

/** Server verify: the merchant's own transaction in the key's mode, or 404 (another merchant's looks unknown). */
export async function verifyPayment(input: { merchantId: string; mode: Mode; reference: string }) {
  const row = await db()
    .executeQuery(findTransaction(db(), input))
    .then((r) => r.rows[0]);
  if (!row)
    throw new AppError(
      "transaction_not_found",
      `No transaction with reference ${input.reference} in ${input.mode} mode.`,
    );
  return presentVerified(row);
}
