import type { Mode } from "@/lib/db/schema";
import type { Trx } from "@/lib/payments/state-machine";
import { newId } from "@/lib/security/tokens";

export type RefundReason = "amount_mismatch" | "duplicate_payment" | "late_payment" | "unknown_account";

/**
 * Record money that reached us but must not be credited, so it is returned to the payer. `source_id` is
 * unique: the same inbound transfer or attempt can never be recorded twice.
 */
export async function recordRefundDue(
  trx: Trx,
  input: {
    transactionId: string | null;
    merchantId: string | null;
    mode: Mode | null;
    source: string;
    sourceId: string;
    amountMinor: bigint;
    currency: string;
    reason: RefundReason;
  },
): Promise<void> {
  await trx
    .insertInto("refunds_due")
    .values({
      id: newId(),
      transaction_id: input.transactionId,
      merchant_id: input.merchantId,
      mode: input.mode,
      source: input.source,
      source_id: input.sourceId,
      amount_minor: input.amountMinor,
      currency: input.currency,
      reason: input.reason,
      status: "pending",
      created_at: Date.now(),
    })
    .execute();
}
