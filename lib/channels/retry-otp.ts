import type { AccessCodePrincipal } from "@/lib/core/principal";
import { db } from "@/lib/db/client";
import { lockTransaction, transition } from "@/lib/payments/state-machine";
import { isTerminal } from "@/lib/payments/status";
import type { CardOutcome, StepAnswer } from "@/lib/rails/types";
import { applyCardOutcome, type CardSummary } from "./apply-card-outcome";
import { updateAttempt } from "./attempts";

/** One-time passwords a customer may type for one card attempt, as issuers allow; the last wrong one fails it. */
export const OTP_TRIES = 3;

type OtpAgain = Extract<CardOutcome, { kind: "action_required" }> & { step: "otp" };

/**
 * The network answered an OTP by asking for an OTP again: the one typed was wrong, and the network (the sandbox,
 * Paystack's `send_otp`) keeps the charge open for another.
 */
export function isWrongOtp(answer: StepAnswer, outcome: CardOutcome): outcome is OtpAgain {
  return answer.step === "otp" && outcome.kind === "action_required" && outcome.step === "otp";
}

/**
 * A wrong one-time password with tries left: the attempt waits for the OTP again, the card kept, and the answer
 * is `awaiting_otp` with `reason: "invalid_otp"` and `otpTriesLeft`. The third wrong one fails the attempt
 * `invalid_otp`, as any decline (applyCardOutcome), and so does a transaction that ended meanwhile.
 */
export async function retryOtp(input: {
  principal: AccessCodePrincipal;
  attemptId: string;
  summary: CardSummary;
  outcome: OtpAgain;
  /** Wrong OTPs before this one. */
  wrongOtps: number;
  /**
   * How the attempt waited for this OTP, to wait the same way again: `awaiting_otp` (the payment waits for it
   * too), or `awaiting_action` with its step's message (a saved card's charge, whose payment stays `pending`).
   */
  waited: { status: string; message?: string };
}) {
  const wrong = input.wrongOtps + 1;
  const left = OTP_TRIES - wrong;
  const fail = () =>
    applyCardOutcome({
      ...input,
      outcome: {
        kind: "failed",
        reason: "invalid_otp",
        message: `The one-time password was wrong ${OTP_TRIES} times; pay again.`,
      },
    });
  if (left <= 0) return fail();
  const kept = await db()
    .transaction()
    .execute(async (trx) => {
      const tx = await lockTransaction(trx, input.principal.transactionId);
      const attempt = await trx
        .selectFrom("charge_attempts")
        .select("status")
        .where("id", "=", input.attemptId)
        .executeTakeFirstOrThrow();
      // Settled meanwhile (card reconciliation) or the transaction ended: applyCardOutcome says what stands.
      if (attempt.status !== "authorizing" || isTerminal(tx.status)) return null;
      const asAction = input.waited.status === "awaiting_action";
      await updateAttempt(trx, input.attemptId, {
        status: asAction ? "awaiting_action" : "awaiting_otp",
        details: {
          ...input.summary,
          authorization: input.outcome.authorization,
          wrongOtps: wrong,
          ...(asAction ? { step: "otp", message: input.waited.message ?? input.outcome.message } : {}),
        },
      });
      if (!asAction && tx.status !== "awaiting_otp") await transition(trx, tx, "awaiting_otp");
      return tx.reference;
    });
  if (kept === null) return applyCardOutcome(input);
  return {
    reference: kept,
    channel: "card" as const,
    card: { brand: input.summary.brand, last4: input.summary.last4 },
    status: "awaiting_otp" as const,
    reason: "invalid_otp" as const,
    message: `The one-time password is wrong; ${left} ${left === 1 ? "try" : "tries"} left.`,
    otpTriesLeft: left,
  };
}
