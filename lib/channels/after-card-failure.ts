import type { TransactionRow, Trx } from "@/lib/db/types";
import { transition } from "@/lib/payments/state-machine";
import { isTerminal } from "@/lib/payments/status";

/**
 * After a card attempt failed (declined, a wrong OTP, the network gave it up), under the row lock: on the
 * checkout the customer can try again, so a transaction waiting for that attempt's OTP is `pending` again; a
 * charge of a saved card made by the merchant has no customer to try again, so it ends `failed` (with its
 * payment.failed event), and the merchant charges again with a new reference when it wants to.
 */
export async function afterCardFailure(trx: Trx, tx: TransactionRow): Promise<void> {
  if (tx.merchant_initiated === 1) {
    if (!isTerminal(tx.status)) await transition(trx, tx, "failed");
    return;
  }
  if (tx.status === "awaiting_otp") await transition(trx, tx, "pending");
}
