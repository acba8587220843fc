import { AppError } from "@/lib/core/errors";
import type { AccessCodePrincipal } from "@/lib/core/principal";
import { db } from "@/lib/db/client";
import type { TransactionRow } from "@/lib/db/types";
import { env } from "@/lib/env";
import { assertOpen, lockTransaction } from "@/lib/payments/state-machine";
import { isTerminal } from "@/lib/payments/status";
import { railsOfAttempt } from "@/lib/rails/rails-for";
import type { ChargeStep, StepAnswer } from "@/lib/rails/types";
import { applyBankOutcome } from "./apply-bank-outcome";
import { updateAttempt } from "./attempts";
import { latestAttempt, refuseAnsweredStep, stepAnswered, withStepAnswered } from "./step-answers";
import { type BankDetails, bankDetails, waitingBankAttempt } from "./waiting-bank-attempt";

const WHAT: Partial<Record<StepAnswer["step"], string>> = {
  otp: "a one-time password",
  birthday: "a date of birth",
  phone: "a phone number",
  pin: "a PIN",
};

type Row = { status: string; details: string };

/**
 * An answer being sent to the bank (`answering`, written when the answer is claimed, gone once the bank's next
 * answer is applied). One older than twice the processor's timeout belongs to a process that died on the
 * way: the step may be answered again.
 */
function answering(details: BankDetails, now = Date.now()): ChargeStep | undefined {
  const claim = details.answering;
  if (!claim) return undefined;
  return claim.at > now - (2 * env().PAYSTACK_TIMEOUT_MS + 10_000) ? claim.step : undefined;
}

/** The step the attempt waits for the customer to answer (none while an answer of it is on its way). */
function waitingStep(attempt: Row): ChargeStep | undefined {
  if (attempt.status !== "awaiting_bank_authorization") return undefined;
  const details = bankDetails(attempt.details);
  return answering(details) ? undefined : details.step;
}

/**
 * POST /payment/checkout/charge/bank-payment/{otp,birthday,phone,pin}: answer what the customer's bank asked for, through
 * the rail that asked, and apply its next answer. Each step is answered once (lib/channels/step-answers.ts):
 * the answer that claims it goes to the bank; another one of the same step, sent meanwhile or after, is 409
 * `step_already_answered` once the first is applied, saying what the bank asks now. 409 `invalid_state` when
 * no bank payment waits for the step.
 */
export async function submitBankStep(input: { principal: AccessCodePrincipal; answer: StepAnswer }) {
  const step = input.answer.step;
  const transactionId = input.principal.transactionId;
  const refuse = () =>
    new AppError(
      "invalid_state",
      `No bank payment is waiting for ${WHAT[step] ?? step}; start the bank payment first.`,
    );
  /** Another answer of this step claimed it: refused once that answer is applied. */
  const beaten = (attemptId: string) =>
    refuseAnsweredStep({
      attemptId,
      step,
      inFlight: (a) =>
        a.status === "awaiting_bank_authorization" && answering(bankDetails(a.details)) === step,
      waitingStep,
    });
  const answeredBefore = async () => {
    const latest = await latestAttempt(transactionId, "bank_payment");
    return latest && waitingStep(latest) !== step && stepAnswered(latest, step) ? latest : undefined;
  };

  const current = await db()
    .selectFrom("transactions")
    .selectAll()
    .where("id", "=", transactionId)
    .executeTakeFirstOrThrow();
  if (isTerminal(current.status)) {
    // Finished, perhaps a moment ago by an answer of this very step: that is what this one is told.
    const answered = await answeredBefore();
    if (answered) return beaten(answered.id);
  }
  assertOpen(current, "answer the bank");
  const seen = await waitingBankAttempt(db(), transactionId);
  if (!seen || waitingStep(seen) !== step) {
    // Answered since the look above, by a request that got there first.
    const answered = await answeredBefore();
    if (answered) return beaten(answered.id);
    throw refuse();
  }
  const rails = await railsOfAttempt({
    attemptId: seen.id,
    merchantId: input.principal.merchantId,
    mode: input.principal.mode,
  });
  // The claim: under the transaction's lock, the attempt still waits for this step and nobody has answered it.
  const claim: { claimed: boolean; closed?: TransactionRow } = await db()
    .transaction()
    .execute(async (trx) => {
      const tx = await lockTransaction(trx, transactionId);
      if (isTerminal(tx.status)) return { claimed: false, closed: tx };
      const waiting = await waitingBankAttempt(trx, tx.id);
      if (waiting?.id !== seen.id || waitingStep(waiting) !== step) return { claimed: false };
      await updateAttempt(trx, waiting.id, {
        status: "awaiting_bank_authorization",
        details: { ...withStepAnswered(waiting, step), answering: { step, at: Date.now() } },
      });
      return { claimed: true };
    });
  if (!claim.claimed) {
    if (await answeredBefore()) return beaten(seen.id);
    if (claim.closed) assertOpen(claim.closed, "answer the bank");
    throw refuse();
  }
  const details = bankDetails(seen.details);
  const outcome = await rails.bankPayment.submitStep({
    attemptId: seen.id,
    requestId: details.requestId ?? "",
    answer: input.answer,
  });
  return applyBankOutcome({ transactionId, attemptId: seen.id, outcome });
}
