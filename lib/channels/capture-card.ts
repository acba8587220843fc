import type { TransactionRow, Trx } from "@/lib/db/types";
import { isTerminal } from "@/lib/payments/status";
import { recordAutomaticRefund } from "@/lib/refunds/create-refund";
import { updateAttempt } from "./attempts";
import { completePayment } from "./complete-payment";
import { channelAmounts } from "./settlement";

/**
 * The network captured the card's money for `attemptId` (under the transaction's row lock, `tx` as read with
 * it): credit the transaction if it is still open; if something else paid or ended it meanwhile, the captured
 * money becomes an automatic refund.
 */
export async function captureCard(
  trx: Trx,
  tx: TransactionRow,
  attemptId: string,
): Promise<"credited" | "refunded"> {
  const captured = channelAmounts(tx, "card").totalMinor;
  await updateAttempt(trx, attemptId, { status: "authorizing", capturedMinor: captured });
  if (!isTerminal(tx.status)) {
    await completePayment(trx, tx, { channel: "card", attemptId });
    return "credited";
  }
  await updateAttempt(trx, attemptId, { status: "refunded" });
  await recordAutomaticRefund(trx, {
    tx,
    source: "card",
    sourceId: attemptId,
    amountMinor: captured,
    currency: tx.currency,
    reason: tx.status === "success" ? "duplicate_payment" : "late_payment",
  });
  return "refunded";
}
