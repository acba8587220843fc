import { AppError } from "@/lib/core/errors";
import type { AccessCodePrincipal } from "@/lib/core/principal";
import { db } from "@/lib/db/client";
import { railsOfAttempt } from "@/lib/rails/rails-for";
import { applyBankOutcome } from "./apply-bank-outcome";
import { bankDetails } from "./waiting-bank-attempt";

/**
 * POST /payment/checkout/charge/bank-payment/check: where the latest bank payment stands at its rail (after
 * the bank's own page, or while the page waits), applied as the rail's answer would be. The sandbox's
 * requests are answered through its doors, so asking it changes nothing. 409 `invalid_state` without one.
 */
export async function checkBankPayment(input: { principal: AccessCodePrincipal }) {
  const attempt = await db()
    .selectFrom("charge_attempts")
    .selectAll()
    .where("transaction_id", "=", input.principal.transactionId)
    .where("channel", "=", "bank_payment")
    .orderBy("created_at", "desc")
    .limit(1)
    .executeTakeFirst();
  if (!attempt) throw new AppError("invalid_state", "There is no bank payment to check; start one first.");
  const details = bankDetails(attempt.details);
  const rails = await railsOfAttempt({
    attemptId: attempt.id,
    merchantId: input.principal.merchantId,
    mode: input.principal.mode,
  });
  const status =
    attempt.status === "awaiting_bank_authorization"
      ? await rails.bankPayment.paymentStatus({ attemptId: attempt.id, requestId: details.requestId ?? "" })
      : { kind: "unknown" as const };
  // Not decided (or settled already): the attempt answered as it stands.
  const outcome =
    status.kind === "unknown"
      ? details.step
        ? {
            kind: "action_required" as const,
            step: details.step,
            message: details.message ?? "",
            ...(details.url && { url: details.url }),
          }
        : {
            kind: "waiting" as const,
            message: details.message ?? `Approve the payment in your ${details.bankName} app.`,
          }
      : status;
  return applyBankOutcome({ transactionId: input.principal.transactionId, attemptId: attempt.id, outcome });
}
