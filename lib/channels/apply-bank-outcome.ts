import { db } from "@/lib/db/client";
import { lockTransaction, transition } from "@/lib/payments/state-machine";
import { isTerminal } from "@/lib/payments/status";
import type { BankPaymentOutcome } from "@/lib/rails/types";
import { updateAttempt } from "./attempts";
import { captureCharge } from "./capture-charge";
import { channelAmounts } from "./settlement";

/**
 * Apply what a processor's bank answered to a bank payment attempt, under the transaction's row lock: wait for
 * the customer's approval (in the bank's app, or on its page), ask for a step (an OTP, a birthday), a capture
 * (credited, or refunded when the transaction was paid or ended meanwhile), or a refusal. An attempt that
 * was superseded or settled meanwhile (by the processor's webhook) keeps that settlement.
 */
export async function applyBankOutcome(input: {
  transactionId: string;
  attemptId: string;
  outcome: BankPaymentOutcome;
}) {
  const { outcome } = input;
  return db()
    .transaction()
    .execute(async (trx) => {
      const tx = await lockTransaction(trx, input.transactionId);
      const attempt = await trx
        .selectFrom("charge_attempts")
        .selectAll()
        .where("id", "=", input.attemptId)
        .executeTakeFirstOrThrow();
      const details = JSON.parse(attempt.details) as {
        bankCode: string;
        bankName: string;
        requestId?: string;
        answered?: string[];
      };
      const base = { reference: tx.reference, bankCode: details.bankCode, bankName: details.bankName };
      if (attempt.status === "success") return { ...base, status: "success" as const };
      if (outcome.kind === "success" && attempt.captured_minor === null) {
        const result = await captureCharge(
          trx,
          tx,
          { id: attempt.id, channel: "bank_payment" },
          channelAmounts(tx, "bank_payment").totalMinor,
        );
        if (result === "credited") return { ...base, status: "success" as const };
        return {
          ...base,
          status: "failed" as const,
          reason: tx.status === "success" ? "already_paid" : "transaction_closed",
          message: "This payment was settled another way; the bank payment will be refunded.",
        };
      }
      if (attempt.status !== "awaiting_bank_authorization" || isTerminal(tx.status)) {
        return {
          ...base,
          status: "failed" as const,
          reason: attempt.failure_reason ?? (isTerminal(tx.status) ? "transaction_closed" : attempt.status),
          message: isTerminal(tx.status)
            ? `This payment is already ${tx.status}.`
            : "This bank payment request was replaced.",
        };
      }
      if (outcome.kind === "failed") {
        await updateAttempt(trx, attempt.id, { status: "failed", failureReason: outcome.reason });
        if (tx.status === "awaiting_bank_authorization") await transition(trx, tx, "pending");
        return { ...base, status: "failed" as const, reason: outcome.reason, message: outcome.message };
      }
      const step = outcome.kind === "action_required" ? outcome : null;
      await updateAttempt(trx, attempt.id, {
        status: "awaiting_bank_authorization",
        details: {
          bankCode: details.bankCode,
          bankName: details.bankName,
          requestId: details.requestId,
          // The steps answered so far stay recorded (lib/channels/step-answers.ts); the answer on its way is done.
          ...(details.answered && { answered: details.answered }),
          ...(step && { step: step.step, message: step.message, ...(step.url && { url: step.url }) }),
        },
      });
      if (tx.status !== "awaiting_bank_authorization")
        await transition(trx, tx, "awaiting_bank_authorization");
      return {
        ...base,
        status: "awaiting_bank_authorization" as const,
        message: outcome.kind === "action_required" || outcome.kind === "waiting" ? outcome.message : "",
        ...(step && {
          action: { step: step.step, message: step.message, ...(step.url && { url: step.url }) },
        }),
      };
    });
}
