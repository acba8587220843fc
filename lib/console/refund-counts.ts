import { db } from "@/lib/db/client";
import type { Mode } from "@/lib/db/schema";

/** How many merchant refunds not failed each of these transactions has (one query per page of the export). */
export async function refundCounts(
  scope: { merchantId: string; mode: Mode },
  transactionIds: string[],
): Promise<Map<string, number>> {
  if (transactionIds.length === 0) return new Map();
  const rows = await db()
    .selectFrom("refunds")
    .select((eb) => ["transaction_id", eb.fn.countAll<number | string | bigint>().as("count")])
    .where("merchant_id", "=", scope.merchantId)
    .where("mode", "=", scope.mode)
    .where("type", "=", "merchant")
    .where("status", "!=", "failed")
    .where("transaction_id", "in", transactionIds)
    .groupBy("transaction_id")
    .execute();
  return new Map(rows.map((r) => [r.transaction_id ?? "", Number(r.count)]));
}
