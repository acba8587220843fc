import type { AccessCodePrincipal } from "@/lib/core/principal";
import { db } from "@/lib/db/client";
import { lockTransaction, transition } from "@/lib/payments/state-machine";
import { isTerminal } from "@/lib/payments/status";
import type { CardOutcome } from "@/lib/rails/types";
import { afterCardFailure } from "./after-card-failure";
import { type AttemptStatus, updateAttempt } from "./attempts";
import { captureCard } from "./capture-card";
import type { CardConsent } from "./card-consent";
import { keepConsentedCard } from "./keep-consented-card";

/**
 * What is kept of a card: brand, last 4 and expiry; with the customer's consent to keep the card when they
 * gave it (card-consent.ts), and on a charge of a saved card its authorization's code.
 */
export type CardSummary = {
  brand: string;
  last4: string;
  expiryMonth: number;
  expiryYear: number;
  consent?: CardConsent;
  savedCard?: string;
};

/**
 * Apply what the card network answered to the attempt, under the transaction's row lock: a failure, a step the
 * customer must answer (a one-time password, a PIN, the bank's 3-D Secure page…), a charge still being
 * decided, or a capture (credited, or refunded when the transaction was paid or ended meanwhile).
 */
export async function applyCardOutcome(input: {
  /** The transaction's (an access code's principal, or a charge of a saved card made by the merchant). */
  principal: Pick<AccessCodePrincipal, "transactionId">;
  attemptId: string;
  summary: CardSummary;
  outcome: CardOutcome;
}) {
  const { outcome, attemptId } = input;
  const card = { brand: input.summary.brand, last4: input.summary.last4 };
  return db()
    .transaction()
    .execute(async (trx) => {
      const tx = await lockTransaction(trx, input.principal.transactionId);
      const base = { reference: tx.reference, channel: "card", card };
      const current = await trx
        .selectFrom("charge_attempts")
        .select(["status", "failure_reason", "captured_minor"])
        .where("id", "=", attemptId)
        .executeTakeFirstOrThrow();
      if (current.status === "failed" && current.captured_minor === null && outcome.kind === "success") {
        // Card reconciliation gave this attempt up (the network had not answered, or said it was still
        // waiting), and the network's answer now says it captured the money after all: that money is real.
        // It pays the transaction if nothing else has, and is refunded otherwise, never lost.
        if ((await captureCard(trx, tx, attemptId, outcome.reusable)) === "credited")
          return { ...base, status: "success" };
        return {
          ...base,
          status: "failed",
          reason: tx.status === "success" ? "already_paid" : "transaction_closed",
          message: "This payment was settled another way; the card charge will be refunded.",
        };
      }
      if (current.status !== "authorizing") {
        // Card reconciliation settled this attempt while its answer was on the way: that settlement stands.
        // (A processor's webhook that paid it first had no card to keep: kept now, when the customer agreed.)
        if (current.status === "success") {
          if (outcome.kind === "success") await keepConsentedCard(trx, tx, attemptId, outcome.reusable);
          return { ...base, status: "success" };
        }
        return {
          ...base,
          status: "failed",
          reason: current.failure_reason ?? current.status,
          message:
            current.status === "refunded"
              ? "This payment was settled another way; the card charge is refunded."
              : "The card payment did not complete.",
        };
      }
      if (outcome.kind === "failed") {
        await updateAttempt(trx, attemptId, { status: "failed", failureReason: outcome.reason });
        await afterCardFailure(trx, tx);
        return { ...base, status: "failed", reason: outcome.reason, message: outcome.message };
      }
      if (outcome.kind === "pending") {
        // The network took the charge and has not decided: the attempt stays at the network (card
        // reconciliation and the processor's webhook settle it) and the page asks again (charge/card/check).
        await updateAttempt(trx, attemptId, {
          status: "authorizing",
          details: { ...input.summary, authorization: outcome.authorization },
        });
        if (tx.status === "awaiting_otp") await transition(trx, tx, "pending");
        return { ...base, status: "processing", message: outcome.message };
      }
      if (outcome.kind === "action_required") {
        // A charge of a saved card stays `pending` while its customer answers (an OTP is a step like any).
        const otp = outcome.step === "otp" && tx.merchant_initiated !== 1;
        const status: AttemptStatus = isTerminal(tx.status)
          ? "failed"
          : otp
            ? "awaiting_otp"
            : "awaiting_action";
        await updateAttempt(trx, attemptId, {
          status,
          // An OTP wait is its status; other steps keep what to show again after a reload.
          details: otp
            ? { ...input.summary, authorization: outcome.authorization }
            : {
                ...input.summary,
                authorization: outcome.authorization,
                step: outcome.step,
                message: outcome.message,
                ...(outcome.url && { url: outcome.url }),
              },
          ...(status === "failed" && { failureReason: "transaction_closed" }),
        });
        if (status === "failed")
          return {
            ...base,
            status: "failed",
            reason: "transaction_closed",
            message: `This payment is already ${tx.status}.`,
          };
        if (otp) {
          await transition(trx, tx, "awaiting_otp");
          return { ...base, status: "awaiting_otp", message: outcome.message };
        }
        // Other steps keep the transaction pending: its status names the channels' waits, and a card step is
        // the customer's to answer on this page (checkout verify carries it as `cardAction`).
        if (tx.status === "awaiting_otp") await transition(trx, tx, "pending");
        return {
          ...base,
          status: "awaiting_action",
          action: {
            step: outcome.step,
            message: outcome.message,
            ...(outcome.url && { url: outcome.url }),
          },
        };
      }
      if ((await captureCard(trx, tx, attemptId, outcome.reusable)) === "credited")
        return { ...base, status: "success" };
      return {
        ...base,
        status: "failed",
        reason: tx.status === "success" ? "already_paid" : "transaction_closed",
        message:
          tx.status === "success"
            ? "This payment was already completed another way; the card charge will be refunded."
            : `This payment is already ${tx.status}; the card charge will be refunded.`,
      };
    });
}
