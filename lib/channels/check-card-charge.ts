import { AppError } from "@/lib/core/errors";
import type { AccessCodePrincipal } from "@/lib/core/principal";
import { db } from "@/lib/db/client";
import { lockTransaction } from "@/lib/payments/state-machine";
import { railsOfAttempt } from "@/lib/rails/rails-for";
import type { CardOutcome } from "@/lib/rails/types";
import { applyCardOutcome } from "./apply-card-outcome";
import { updateAttempt } from "./attempts";
import { presentCardAttempt } from "./present-card-attempt";
import { cardDetails } from "./waiting-card-attempt";

/**
 * POST /payment/checkout/charge/card/check: where the latest card payment stands, asked of its network now
 * (Paystack: GET /charge/{reference}, then GET /transaction/verify/{reference}). The page calls it when the
 * customer comes back from the bank's 3-D Secure page, and while a charge is `processing`; a decision the
 * network has made is applied as if it had been the answer (the same path, applyCardOutcome). A card payment
 * already settled answers as it stands; 409 `invalid_state` when there is no card payment to check.
 */
export async function checkCardCharge(input: { principal: AccessCodePrincipal }) {
  const attempt = await db()
    .selectFrom("charge_attempts")
    .selectAll()
    .where("transaction_id", "=", input.principal.transactionId)
    .where("channel", "=", "card")
    .orderBy("created_at", "desc")
    .limit(1)
    .executeTakeFirst();
  if (!attempt) throw new AppError("invalid_state", "There is no card payment to check; pay by card first.");
  const details = cardDetails(attempt);
  const settled = (outcome: CardOutcome) =>
    applyCardOutcome({
      principal: input.principal,
      attemptId: attempt.id,
      summary: details.summary,
      outcome,
    });
  const waitingStep = attempt.status === "awaiting_action" || attempt.status === "awaiting_otp";
  // Settled already (success, failed, refunded): answered as it stands.
  if (attempt.status !== "authorizing" && !waitingStep)
    return presentCardAttempt(input.principal.reference, attempt);
  const rails = await railsOfAttempt({
    attemptId: attempt.id,
    merchantId: input.principal.merchantId,
    mode: input.principal.mode,
  });
  const status = await rails.card.cardStatus({ attemptId: attempt.id, reference: input.principal.reference });
  const undecided = status.kind === "unknown" || status.kind === "pending";
  // Still waiting for the customer: nothing changes.
  if (waitingStep && (undecided || (status.kind === "action_required" && status.step === details.step)))
    return presentCardAttempt(input.principal.reference, attempt);
  if (waitingStep) {
    // The network decided (or moved on to another step): take the attempt back from the customer's hands
    // first, so the decision applies exactly as an answer would (compare-and-set: once).
    const moved = await db()
      .transaction()
      .execute(async (trx) => {
        await lockTransaction(trx, input.principal.transactionId);
        const current = await trx
          .selectFrom("charge_attempts")
          .select("status")
          .where("id", "=", attempt.id)
          .executeTakeFirstOrThrow();
        if (current.status !== attempt.status) return false;
        await updateAttempt(trx, attempt.id, { status: "authorizing" });
        return true;
      });
    if (!moved) {
      const now = await db()
        .selectFrom("charge_attempts")
        .selectAll()
        .where("id", "=", attempt.id)
        .executeTakeFirstOrThrow();
      return presentCardAttempt(input.principal.reference, now);
    }
  }
  if (status.kind === "unknown") {
    return settled({
      kind: "pending",
      authorization: details.authorization ?? "",
      message: "The card payment is being confirmed.",
    });
  }
  return settled(status);
}
