import { AppError } from "@/lib/core/errors";
import type { SecretKeyPrincipal } from "@/lib/core/principal";
import { db } from "@/lib/db/client";
import type { Channel } from "@/lib/payments/channel-list";
import { assertOpen, lockTransaction, transition } from "@/lib/payments/state-machine";
import { assertTestMode } from "@/lib/payments/test-mode";
import { updateAttempt } from "./attempts";
import { completePayment } from "./complete-payment";
import { channelAmounts } from "./settlement";

/**
 * POST /v1/sandbox/authorizations: the customer's answer in the banking app (bank payment) or on the phone
 * (USSD). Approve credits the transaction through the same completion as every channel; decline fails the
 * attempt and the customer may try again or switch channel.
 */
export async function sandboxAuthorize(input: {
  /** Whose transaction: the secret key's merchant and mode, or those of a checkout's access code. */
  principal: Pick<SecretKeyPrincipal, "merchantId" | "mode">;
  reference: string;
  decision: "approve" | "decline";
}) {
  assertTestMode(input.principal.mode);
  return db()
    .transaction()
    .execute(async (trx) => {
      const found = await trx
        .selectFrom("transactions")
        .select("id")
        .where("reference", "=", input.reference)
        .where("merchant_id", "=", input.principal.merchantId)
        .where("mode", "=", input.principal.mode)
        .executeTakeFirst();
      if (!found)
        throw new AppError(
          "transaction_not_found",
          `No transaction with reference ${input.reference} in test mode.`,
        );
      const tx = await lockTransaction(trx, found.id);
      assertOpen(tx, `${input.decision} it`);
      const attempt = await trx
        .selectFrom("charge_attempts")
        .selectAll()
        .where("transaction_id", "=", tx.id)
        .where("status", "in", ["awaiting_bank_authorization", "awaiting_ussd"])
        // Only the sandbox's own requests: a processor's (Paystack test mode) is answered at the processor.
        .where(({ not, exists, selectFrom }) =>
          not(
            exists(
              selectFrom("rail_charges")
                .select("rail_reference")
                .whereRef("rail_charges.attempt_id", "=", "charge_attempts.id"),
            ),
          ),
        )
        .orderBy("created_at", "desc")
        .limit(1)
        .executeTakeFirst();
      if (!attempt) {
        throw new AppError(
          "invalid_state",
          `Transaction ${tx.reference} has no bank payment or USSD request waiting for approval.`,
        );
      }
      const channel = attempt.channel as Channel;
      if (input.decision === "decline") {
        await updateAttempt(trx, attempt.id, { status: "failed", failureReason: "declined_by_customer" });
        // Only the request the transaction is waiting on sends it back to pending: a late decline of a
        // request the customer has since switched away from (to a transfer, say) leaves that channel waiting.
        const after = tx.status === attempt.status ? await transition(trx, tx, "pending") : tx;
        return { reference: tx.reference, decision: input.decision, channel, status: after.status };
      }
      await updateAttempt(trx, attempt.id, {
        status: "authorizing",
        capturedMinor: channelAmounts(tx, channel).totalMinor,
      });
      const paid = await completePayment(trx, tx, { channel, attemptId: attempt.id });
      return { reference: tx.reference, decision: input.decision, channel, status: paid.status };
    });
}
