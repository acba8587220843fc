import type { TransactionRow, Trx } from "@/lib/db/types";
import { isTerminal } from "@/lib/payments/status";
import type { ReusableCard } from "@/lib/rails/types";
import { recordAutomaticRefund } from "@/lib/refunds/create-refund";
import { updateAttempt } from "./attempts";
import { completePayment } from "./complete-payment";
import { keepConsentedCard } from "./keep-consented-card";
import { channelAmounts } from "./settlement";

/**
 * The network captured the card's money for `attemptId` (under the transaction's row lock, `tx` as read with
 * it): credit the transaction if it is still open; if something else paid or ended it meanwhile, the captured
 * money becomes an automatic refund. A card paid with the customer's consent to keep it is saved first
 * (`reusable`: what the network gave to charge it again), and a saved card charged is marked used.
 */
export async function captureCard(
  trx: Trx,
  tx: TransactionRow,
  attemptId: string,
  reusable?: ReusableCard,
): Promise<"credited" | "refunded"> {
  const captured = channelAmounts(tx, "card").totalMinor;
  await updateAttempt(trx, attemptId, { status: "authorizing", capturedMinor: captured });
  if (!isTerminal(tx.status)) {
    const kept = await keepConsentedCard(trx, tx, attemptId, reusable);
    if (kept.merchant_initiated === 1 && kept.authorization_id) {
      await trx
        .updateTable("card_authorizations")
        .set({ last_used_at: Date.now() })
        .where("id", "=", kept.authorization_id)
        .execute();
    }
    await completePayment(trx, kept, { channel: "card", attemptId });
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
