import { db } from "@/lib/db/client";
import type { Mode } from "@/lib/db/schema";
import { formatAmount } from "@/lib/money/amount";
import type { Currency } from "@/lib/money/currencies";
import { refundableMinor } from "./create-refund";
import { listRefunds } from "./list-refunds";

/**
 * What a payment's page shows of its refunds: what is still refundable and every refund of it (the
 * merchant's and the automatic ones), newest first. Null when the merchant has no such payment in the mode.
 */
export async function refundSummary(input: { merchantId: string; mode: Mode; reference: string }) {
  const tx = await db()
    .selectFrom("transactions")
    .selectAll()
    .where("reference", "=", input.reference)
    .where("merchant_id", "=", input.merchantId)
    .where("mode", "=", input.mode)
    .executeTakeFirst();
  if (!tx) return null;
  const { refunds } = await listRefunds({ ...input, limit: 100 });
  return { refundable: formatAmount(refundableMinor(tx), tx.currency as Currency), refunds };
}
