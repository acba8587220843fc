import { AppError } from "@/lib/core/errors";
import type { AccessCodePrincipal } from "@/lib/core/principal";
import { db } from "@/lib/db/client";
import { assertOpen, lockTransaction } from "@/lib/payments/state-machine";
import { railsOfAttempt } from "@/lib/rails/rails-for";
import type { StepAnswer } from "@/lib/rails/types";
import { applyBankOutcome } from "./apply-bank-outcome";
import { bankDetails, waitingBankAttempt } from "./waiting-bank-attempt";

const WHAT: Partial<Record<StepAnswer["step"], string>> = {
  otp: "a one-time password",
  birthday: "a date of birth",
  phone: "a phone number",
  pin: "a PIN",
};

/**
 * POST /payment/checkout/charge/bank-payment/{otp,birthday,phone,pin}: answer what the customer's bank asked for, through
 * the rail that asked, and apply its next answer. 409 `invalid_state` when no bank payment waits for it.
 */
export async function submitBankStep(input: { principal: AccessCodePrincipal; answer: StepAnswer }) {
  const step = input.answer.step;
  const refuse = () =>
    new AppError(
      "invalid_state",
      `No bank payment is waiting for ${WHAT[step] ?? step}; start the bank payment first.`,
    );
  const current = await db()
    .selectFrom("transactions")
    .selectAll()
    .where("id", "=", input.principal.transactionId)
    .executeTakeFirstOrThrow();
  assertOpen(current, "answer the bank");
  const seen = await waitingBankAttempt(db(), input.principal.transactionId);
  if (!seen || bankDetails(seen.details).step !== step) throw refuse();
  const rails = await railsOfAttempt({
    attemptId: seen.id,
    merchantId: input.principal.merchantId,
    mode: input.principal.mode,
  });
  await db()
    .transaction()
    .execute(async (trx) => {
      const tx = await lockTransaction(trx, input.principal.transactionId);
      assertOpen(tx, "answer the bank");
      const waiting = await waitingBankAttempt(trx, tx.id);
      if (waiting?.id !== seen.id || bankDetails(waiting.details).step !== step) throw refuse();
    });
  const details = bankDetails(seen.details);
  const outcome = await rails.bankPayment.submitStep({
    attemptId: seen.id,
    requestId: details.requestId ?? "",
    answer: input.answer,
  });
  return applyBankOutcome({ transactionId: input.principal.transactionId, attemptId: seen.id, outcome });
}
