import type { AccessCodePrincipal } from "@/lib/core/principal";
import { db } from "@/lib/db/client";
import { assertOpen, lockTransaction, transition } from "@/lib/payments/state-machine";
import { assertNoCardInFlight } from "./assert-no-card-in-flight";
import { releaseHeldTransfers } from "./held-transfers";

/**
 * POST /payment/checkout/cancel: the customer gives up; the transaction ends `abandoned`. Not while a card
 * payment is at the network: its answer decides (409 `invalid_state`), or a capture that lands after the
 * cancel would have to be refunded instead of paying the order.
 */
export async function cancelCheckout(input: { principal: AccessCodePrincipal }) {
  const tx = await db()
    .transaction()
    .execute(async (trx) => {
      const row = await lockTransaction(trx, input.principal.transactionId);
      assertOpen(row, "cancel");
      await assertNoCardInFlight(trx, row.id, "cancel");
      // Transfers of too little held on its account go back (lib/channels/held-transfers.ts).
      await releaseHeldTransfers(trx, row);
      return transition(trx, row, "abandoned");
    });
  return { reference: tx.reference, status: tx.status };
}
