import { AppError } from "@/lib/core/errors";
import type { AccessCodePrincipal } from "@/lib/core/principal";
import { db } from "@/lib/db/client";
import type { TransactionRow } from "@/lib/db/types";
import { assertOpen, lockTransaction } from "@/lib/payments/state-machine";
import { isTerminal } from "@/lib/payments/status";
import { railsOfAttempt } from "@/lib/rails/rails-for";
import type { ChargeStep, StepAnswer } from "@/lib/rails/types";
import { applyCardOutcome } from "./apply-card-outcome";
import { updateAttempt } from "./attempts";
import { callCardRail } from "./call-card-rail";
import { isWrongOtp, retryOtp } from "./retry-otp";
import { latestAttempt, refuseAnsweredStep, stepAnswered, withStepAnswered } from "./step-answers";
import { cardDetails, waitingCardAttempt } from "./waiting-card-attempt";

const WHAT: Record<ChargeStep, string> = {
  pin: "a PIN",
  otp: "a one-time password",
  phone: "a phone number",
  birthday: "a date of birth",
  address: "a billing address",
  redirect: "the bank's page",
};

/**
 * POST /payment/checkout/charge/card/{otp,pin,phone,birthday,address}: answer the step the card's network
 * asked for, through the rail that asked (the attempt's own, rail_charges), and apply what it answers next
 * (success, a decline, another step). Each step is answered once (lib/channels/step-answers.ts): another
 * answer of it, sent meanwhile or after, is 409 `step_already_answered` once the first is applied. 409
 * `invalid_state` when no card payment waits for this step.
 */
export async function submitCardStep(input: { principal: AccessCodePrincipal; answer: StepAnswer }) {
  const step = input.answer.step;
  const refuse = () =>
    new AppError(
      "invalid_state",
      `No card payment is waiting for ${WHAT[step]}; pay by card first, or answer the step the page shows.`,
    );
  const beaten = (attemptId: string) =>
    refuseAnsweredStep({
      attemptId,
      step,
      inFlight: (a) => a.status === "authorizing",
      waitingStep: waitingFor,
    });
  const answeredBefore = async () => {
    const latest = await latestAttempt(input.principal.transactionId, "card");
    return latest && waitingFor(latest) !== step && stepAnswered(latest, step) ? latest : undefined;
  };
  // A finished transaction is refused as such (409 naming its status), before anything else is looked at,
  // unless an answer of this very step finished it a moment ago.
  const current = await db()
    .selectFrom("transactions")
    .selectAll()
    .where("id", "=", input.principal.transactionId)
    .executeTakeFirstOrThrow();
  if (isTerminal(current.status)) {
    const answered = await answeredBefore();
    if (answered) return beaten(answered.id);
  }
  assertOpen(current, `send ${WHAT[step]}`);
  // The rail is found before anything moves (it reads the database, which a transaction would hold on SQLite).
  const seen = await waitingCardAttempt(db(), input.principal.transactionId);
  if (!seen || cardDetails(seen).step !== step) {
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
  const claim: { attempt: typeof seen | null; closed?: TransactionRow } = await db()
    .transaction()
    .execute(async (trx) => {
      const row = await lockTransaction(trx, input.principal.transactionId);
      if (isTerminal(row.status)) return { attempt: null, closed: row };
      const waiting = await waitingCardAttempt(trx, row.id);
      if (waiting?.id !== seen.id || cardDetails(waiting).step !== step) return { attempt: null };
      const details = withStepAnswered(waiting, step);
      await updateAttempt(trx, waiting.id, { status: "authorizing", details });
      return { attempt: { ...waiting, details: JSON.stringify(details) } };
    });
  const attempt = claim.attempt;
  if (!attempt) {
    if (await answeredBefore()) return beaten(seen.id);
    if (claim.closed) assertOpen(claim.closed, `send ${WHAT[step]}`);
    throw refuse();
  }
  const { authorization, summary, wrongOtps, message } = cardDetails(attempt);
  const outcome = await callCardRail(input.principal, attempt.id, () =>
    rails.card.submitStep({
      attemptId: attempt.id,
      authorization: authorization ?? "",
      answer: input.answer,
    }),
  );
  const applied = { principal: input.principal, attemptId: attempt.id, summary, outcome };
  if (isWrongOtp(input.answer, outcome))
    return retryOtp({ ...applied, outcome, wrongOtps, waited: { status: attempt.status, message } });
  return applyCardOutcome(applied);
}

/** The step a card attempt waits for the customer to answer, if it waits. */
function waitingFor(attempt: { status: string; details: string }): ChargeStep | undefined {
  return attempt.status === "awaiting_otp" || attempt.status === "awaiting_action"
    ? cardDetails(attempt).step
    : undefined;
}
