import { db } from "@/lib/db/client";
import type { AccessCodePrincipal } from "@/lib/http/principal";
import { assertOpen, lockTransaction, transition } from "@/lib/payments/state-machine";

/** POST /payment/checkout/cancel: the customer gives up; the transaction ends `abandoned`. */
export async function cancelCheckout(input: { principal: AccessCodePrincipal }) {
  const tx = await db()
    .transaction()
    .execute(async (trx) => {
      const row = await lockTransaction(trx, input.principal.transactionId);
      assertOpen(row, "cancel");
      return transition(trx, row, "abandoned");
    });
  return { reference: tx.reference, status: tx.status };
}
