import type { Selectable } from "kysely";
import { AppError } from "@/lib/core/errors";
import { db } from "@/lib/db/client";
import type { ChargeAttemptsTable } from "@/lib/db/schema";
import type { ChargeStep } from "@/lib/rails/types";

/**
 * One answer per step of a card or bank payment (a PIN, an OTP, a phone number…), whoever sends it, from any
 * process or instance. A double tap, a retry or a second tab sends the same step again; only the first answer
 * may go to the processor: a second one reaches a charge that no longer waits for it, and Paystack answers it
 * as an error, which used to fail a payment that was going through.
 *
 * The answer that wins records its step in the attempt's details (`answered`, kept by every later write of
 * them) in the same locked transaction that claims the attempt; the others find it there, wait (a bounded
 * while) for that answer to be applied, and are refused with 409 `step_already_answered`, saying what the
 * payment waits for now (the next step, the bank's approval, paid, refused), which the page then shows.
 */
type AttemptRow = Selectable<ChargeAttemptsTable>;

const WHAT: Record<ChargeStep, string> = {
  pin: "PIN",
  otp: "one-time password",
  phone: "phone number",
  birthday: "date of birth",
  address: "billing address",
  redirect: "confirmation on the bank's page",
};
const ARTICLE: Record<ChargeStep, string> = {
  pin: "a PIN",
  otp: "a one-time password",
  phone: "a phone number",
  birthday: "a date of birth",
  address: "a billing address",
  redirect: "a confirmation on the bank's page",
};

/** How long a refused answer waits for the answer that went through to be applied, before it is told anyway. */
const SETTLE_WAIT_MS = 20_000;
const SETTLE_POLL_MS = 100;

type StepDetails = { step?: ChargeStep; answered?: ChargeStep[] };

function stepDetails(attempt: Pick<AttemptRow, "details">): StepDetails {
  return JSON.parse(attempt.details) as StepDetails;
}

/** Whether `step` was already answered on this attempt. */
export function stepAnswered(attempt: Pick<AttemptRow, "details">, step: ChargeStep): boolean {
  return stepDetails(attempt).answered?.includes(step) ?? false;
}

/** The attempt's details with `step` recorded as answered: what the winning answer writes when it claims it. */
export function withStepAnswered(
  attempt: Pick<AttemptRow, "details">,
  step: ChargeStep,
): Record<string, unknown> {
  const details = JSON.parse(attempt.details) as Record<string, unknown> & StepDetails;
  const answered = details.answered ?? [];
  return { ...details, answered: answered.includes(step) ? answered : [...answered, step] };
}

/** The latest attempt of `channel` on the transaction, whatever its status. */
export async function latestAttempt(transactionId: string, channel: "card" | "bank_payment") {
  return db()
    .selectFrom("charge_attempts")
    .selectAll()
    .where("transaction_id", "=", transactionId)
    .where("channel", "=", channel)
    .orderBy("created_at", "desc")
    .limit(1)
    .executeTakeFirst();
}

function whatNow(attempt: AttemptRow, waitingStep: ChargeStep | undefined): string {
  switch (attempt.status) {
    case "success":
      return "the payment went through";
    case "failed":
    case "refunded":
      return "that answer did not go through, so nothing was charged; the payment can be started again";
    case "authorizing":
      return "it is still being processed; the payment's status shows what comes next";
    default:
      if (waitingStep) return `the bank now asks for ${ARTICLE[waitingStep]}`;
      return "the bank now waits for the payment's approval";
  }
}

/**
 * Refuse an answer of `step` that another answer beat: wait until that answer is applied (`inFlight` false on
 * the attempt as it now stands, at most SETTLE_WAIT_MS), then throw 409 `step_already_answered` naming what the
 * payment waits for now.
 */
export async function refuseAnsweredStep(input: {
  attemptId: string;
  step: ChargeStep;
  inFlight: (attempt: AttemptRow) => boolean;
  waitingStep: (attempt: AttemptRow) => ChargeStep | undefined;
}): Promise<never> {
  const deadline = Date.now() + SETTLE_WAIT_MS;
  let attempt = await readAttempt(input.attemptId);
  while (attempt && input.inFlight(attempt) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, SETTLE_POLL_MS));
    attempt = await readAttempt(input.attemptId);
  }
  const now = !attempt
    ? "the payment has moved on"
    : input.inFlight(attempt)
      ? "it is still being processed; the payment's status shows what comes next"
      : whatNow(attempt, input.waitingStep(attempt));
  throw new AppError(
    "step_already_answered",
    `This ${WHAT[input.step]} was already sent (a second tap, a retry or another tab), and ${now}.`,
  );
}

function readAttempt(id: string) {
  return db().selectFrom("charge_attempts").selectAll().where("id", "=", id).executeTakeFirst();
}
