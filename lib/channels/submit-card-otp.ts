import { db } from "@/lib/db/client";
import { AppError } from "@/lib/http/errors";
import type { AccessCodePrincipal } from "@/lib/http/principal";
import { assertOpen, lockTransaction } from "@/lib/payments/state-machine";
import { railsFor } from "@/lib/rails/rails-for";
import { applyCardOutcome, type CardSummary } from "./apply-card-outcome";
import { latestAttempt, updateAttempt } from "./attempts";
import { callCardRail } from "./call-card-rail";

/** POST /payment/checkout/charge/card/otp: finish the card payment that asked for a one-time password. */
export async function submitCardOtp(input: { principal: AccessCodePrincipal; otp: string }) {
  const { attempt, tx } = await db()
    .transaction()
    .execute(async (trx) => {
      const row = await lockTransaction(trx, input.principal.transactionId);
      assertOpen(row, "submit an OTP");
      const waiting = await latestAttempt(trx, row.id, "card", ["awaiting_otp"]);
      if (!waiting)
        throw new AppError(
          "invalid_state",
          "No card payment is waiting for a one-time password; pay by card first.",
        );
      await updateAttempt(trx, waiting.id, { status: "authorizing" });
      return { attempt: waiting, tx: row };
    });
  const details = JSON.parse(attempt.details) as CardSummary & { authorization?: string };
  const outcome = await callCardRail(input.principal, attempt.id, () =>
    railsFor(tx.mode).card.confirmOtp({
      attemptId: attempt.id,
      authorization: details.authorization ?? "",
      otp: input.otp,
    }),
  );
  const { authorization: _drop, ...summary } = details;
  return applyCardOutcome({ principal: input.principal, attemptId: attempt.id, summary, outcome });
}
