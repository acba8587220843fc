import type { TransactionRow, Trx } from "@/lib/db/types";
import type { Channel } from "@/lib/payments/channel-list";
import { isTerminal } from "@/lib/payments/status";
import { recordAutomaticRefund } from "@/lib/refunds/create-refund";
import { updateAttempt } from "./attempts";
import { completePayment } from "./complete-payment";
import { channelAmounts } from "./settlement";

/**
 * A rail took `capturedMinor` from the customer on an attempt (card, bank payment or USSD), under the
 * transaction's row lock (`tx` as read with it). The exact amount on an open transaction pays it; anything
 * else is money to give back, as an automatic refund: after success a `duplicate_payment`, after the
 * transaction ended a `late_payment`, and a different amount an `amount_mismatch` (the checkout stays open).
 * Money in = credited + refunded, whatever arrives.
 */
export async function captureCharge(
  trx: Trx,
  tx: TransactionRow,
  attempt: { id: string; channel: Channel },
  capturedMinor: bigint,
): Promise<"credited" | "refunded"> {
  const expected = channelAmounts(tx, attempt.channel).totalMinor;
  await updateAttempt(trx, attempt.id, { status: "authorizing", capturedMinor });
  if (!isTerminal(tx.status) && capturedMinor === expected) {
    await completePayment(trx, tx, { channel: attempt.channel, attemptId: attempt.id });
    return "credited";
  }
  await updateAttempt(trx, attempt.id, {
    status: "refunded",
    ...(capturedMinor !== expected && !isTerminal(tx.status) && { failureReason: "amount_mismatch" }),
  });
  await recordAutomaticRefund(trx, {
    tx,
    source: attempt.channel,
    sourceId: attempt.id,
    amountMinor: capturedMinor,
    currency: tx.currency,
    reason:
      tx.status === "success"
        ? "duplicate_payment"
        : isTerminal(tx.status)
          ? "late_payment"
          : "amount_mismatch",
  });
  return "refunded";
}
