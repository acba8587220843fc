import { AppError } from "@/lib/core/errors";
import type { AccessCodePrincipal } from "@/lib/core/principal";
import { db } from "@/lib/db/client";
import { assertOpen, lockTransaction } from "@/lib/payments/state-machine";
import { railsOfAttempt } from "@/lib/rails/rails-for";
import type { ChargeStep, StepAnswer } from "@/lib/rails/types";
import { applyCardOutcome } from "./apply-card-outcome";
import { updateAttempt } from "./attempts";
import { callCardRail } from "./call-card-rail";
import { isWrongOtp, retryOtp } from "./retry-otp";
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
 * (success, a decline, another step). 409 `invalid_state` when no card payment waits for this step.
 */
export async function submitCardStep(input: { principal: AccessCodePrincipal; answer: StepAnswer }) {
  const step = input.answer.step;
  const refuse = () =>
    new AppError(
      "invalid_state",
      `No card payment is waiting for ${WHAT[step]}; pay by card first, or answer the step the page shows.`,
    );
  // A finished transaction is refused as such (409 naming its status), before anything else is looked at.
  const current = await db()
    .selectFrom("transactions")
    .selectAll()
    .where("id", "=", input.principal.transactionId)
    .executeTakeFirstOrThrow();
  assertOpen(current, `send ${WHAT[step]}`);
  // The rail is found before anything moves (it reads the database, which a transaction would hold on SQLite).
  const seen = await waitingCardAttempt(db(), input.principal.transactionId);
  if (!seen || cardDetails(seen).step !== step) throw refuse();
  const rails = await railsOfAttempt({
    attemptId: seen.id,
    merchantId: input.principal.merchantId,
    mode: input.principal.mode,
  });
  const { attempt } = await db()
    .transaction()
    .execute(async (trx) => {
      const row = await lockTransaction(trx, input.principal.transactionId);
      assertOpen(row, `send ${WHAT[step]}`);
      const waiting = await waitingCardAttempt(trx, row.id);
      if (waiting?.id !== seen.id || cardDetails(waiting).step !== step) throw refuse();
      await updateAttempt(trx, waiting.id, { status: "authorizing" });
      return { attempt: waiting };
    });
  const { authorization, summary, wrongOtps } = cardDetails(attempt);
  const outcome = await callCardRail(input.principal, attempt.id, () =>
    rails.card.submitStep({
      attemptId: attempt.id,
      authorization: authorization ?? "",
      answer: input.answer,
    }),
  );
  const applied = { principal: input.principal, attemptId: attempt.id, summary, outcome };
  if (isWrongOtp(input.answer, outcome)) return retryOtp({ ...applied, outcome, wrongOtps });
  return applyCardOutcome(applied);
}
