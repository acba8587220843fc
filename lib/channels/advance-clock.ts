import { sql } from "kysely";
import { AppError } from "@/lib/core/errors";
import type { SecretKeyPrincipal } from "@/lib/core/principal";
import { db } from "@/lib/db/client";
import { toMillis } from "@/lib/db/schema";
import { lockTransaction } from "@/lib/payments/state-machine";
import { assertTestMode } from "@/lib/payments/test-mode";
import { verifyPayment } from "@/lib/payments/verify-payment";
import { abandonIfExpired } from "./abandon-expired";
import { releaseHeldTransfers } from "./held-transfers";

/**
 * POST /v1/sandbox/clock/advance: move one test transaction's clock `seconds` forward (docs/testing.md). Its
 * deadlines come that much closer: the access code's expiry, a payment link checkout's hold on its place,
 * every virtual account's window. Then what has fallen due runs at once, by
 * the same rule as the expiry sweep: transfers of too little held on an account whose window has now ended are
 * refunded, and a checkout past its expiry with no transfer window open and no card at the network ends
 * `abandoned` (with its `checkout.completed` event). A transfer that arrives after its
 * account's window is a late payment, as with real time. Nothing else's time moves. Answers as verify does.
 */
export async function advanceClock(input: {
  principal: SecretKeyPrincipal;
  reference: string;
  seconds: number;
}) {
  assertTestMode(input.principal.mode);
  const shift = input.seconds * 1000;
  const transactionId = await db()
    .transaction()
    .execute(async (trx) => {
      const found = await trx
        .selectFrom("transactions")
        .select("id")
        .where("reference", "=", input.reference)
        .where("merchant_id", "=", input.principal.merchantId)
        .where("mode", "=", input.principal.mode)
        .executeTakeFirst();
      if (!found) {
        throw new AppError(
          "transaction_not_found",
          `No transaction with reference ${input.reference} in ${input.principal.mode} mode.`,
        );
      }
      // Under the row lock, so a charge or the sweep sees the deadlines before or after the move, not halfway.
      const tx = await lockTransaction(trx, found.id);
      await trx
        .updateTable("transactions")
        .set({
          access_expires_at: toMillis(tx.access_expires_at) - shift,
          link_place_until: tx.link_place_until === null ? null : toMillis(tx.link_place_until) - shift,
        })
        .where("id", "=", tx.id)
        .execute();
      await trx
        .updateTable("virtual_accounts")
        .set({ expires_at: sql`expires_at - ${shift}` })
        .where("transaction_id", "=", tx.id)
        .execute();
      // A window that has now ended gives back what it held, as the sweep would.
      await releaseHeldTransfers(trx, tx, { expiredBy: Date.now() });
      return tx.id;
    });
  await abandonIfExpired(transactionId);
  return verifyPayment({
    merchantId: input.principal.merchantId,
    mode: input.principal.mode,
    reference: input.reference,
  });
}
