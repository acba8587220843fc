import { db } from "@/lib/db/client";
import type { TransactionRow, Trx } from "@/lib/db/types";
import { env } from "@/lib/env";
import { AppError } from "@/lib/http/errors";
import type { AccessCodePrincipal } from "@/lib/http/principal";
import { assertOpen, lockTransaction, transition } from "@/lib/payments/state-machine";
import { isTerminal } from "@/lib/payments/status";
import { railsFor } from "@/lib/rails/rails-for";
import type { CardDetails, CardOutcome } from "@/lib/rails/types";
import { recordAutomaticRefund } from "@/lib/refunds/create-refund";
import { type AttemptStatus, createAttempt, latestAttempt, updateAttempt } from "./attempts";
import { cardBrand } from "./card-brand";
import { completePayment } from "./complete-payment";
import { openForCharge } from "./open-for-charge";
import { channelAmounts } from "./settlement";

type CardSummary = { brand: string; last4: string; expiryMonth: number; expiryYear: number };

/**
 * Whether a card network call is still running for the transaction. One older than CARD_RECONCILE_SECONDS
 * died with its process and no longer counts (it no longer blocks the customer, nor the expiry sweep); card
 * reconciliation (lib/channels/reconcile-cards.ts) asks the network what became of it.
 */
export async function cardInFlight(trx: Trx, transactionId: string): Promise<boolean> {
  const inFlight = await latestAttempt(trx, transactionId, "card", ["authorizing"]);
  return (
    inFlight !== undefined && Number(inFlight.updated_at) > Date.now() - env().CARD_RECONCILE_SECONDS * 1000
  );
}

/**
 * Refuse (409 `invalid_state`) to end a transaction unpaid while a card payment is at the network: the
 * network's answer decides. Whoever ends a checkout (cancel, a simulated failure) asks this under the row lock.
 */
export async function assertNoCardInFlight(trx: Trx, transactionId: string, action: string): Promise<void> {
  if (await cardInFlight(trx, transactionId)) {
    throw new AppError(
      "invalid_state",
      `Cannot ${action} while a card payment for this transaction is being processed; wait for its outcome.`,
    );
  }
}

/**
 * POST /payment/checkout/charge/card. The card network is called outside any database transaction (no lock
 * is held across the network); what it answers is then applied under the row lock: a success credits the
 * transaction if it is still open, and if something else paid it meanwhile the captured money is recorded
 * as a duplicate payment to refund. Only brand, last 4 and expiry are kept.
 */
export async function chargeCard(input: { principal: AccessCodePrincipal; card: CardDetails }) {
  const summary: CardSummary = {
    brand: cardBrand(input.card.number),
    last4: input.card.number.slice(-4),
    expiryMonth: input.card.expiryMonth,
    expiryYear: input.card.expiryYear,
  };
  const { attemptId, tx } = await db()
    .transaction()
    .execute(async (trx) => {
      const row = await openForCharge(trx, input.principal, "card");
      // One card network call at a time per transaction.
      if (await cardInFlight(trx, row.id)) {
        throw new AppError(
          "invalid_state",
          "A card payment for this transaction is already being processed.",
        );
      }
      // A new card payment replaces one still waiting for its OTP.
      await trx
        .updateTable("charge_attempts")
        .set({ status: "failed", failure_reason: "superseded", updated_at: Date.now() })
        .where("transaction_id", "=", row.id)
        .where("channel", "=", "card")
        .where("status", "=", "awaiting_otp")
        .execute();
      return { tx: row, attemptId: await createAttempt(trx, row, "card", "authorizing", summary) };
    });
  const amounts = channelAmounts(tx, "card");
  const outcome = await callRail(input.principal, attemptId, () =>
    railsFor(tx.mode).card.authorize({
      attemptId,
      card: input.card,
      amountMinor: amounts.totalMinor,
      currency: tx.currency,
      reference: tx.reference,
    }),
  );
  return applyCardOutcome({ principal: input.principal, attemptId, summary, outcome });
}

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
  const outcome = await callRail(input.principal, attempt.id, () =>
    railsFor(tx.mode).card.confirmOtp({
      attemptId: attempt.id,
      authorization: details.authorization ?? "",
      otp: input.otp,
    }),
  );
  const { authorization: _drop, ...summary } = details;
  return applyCardOutcome({ principal: input.principal, attemptId: attempt.id, summary, outcome });
}

/** A rail that throws leaves the attempt failed (nothing was captured) and answers 503. */
async function callRail(
  principal: AccessCodePrincipal,
  attemptId: string,
  call: () => Promise<CardOutcome>,
): Promise<CardOutcome> {
  try {
    return await call();
  } catch (err) {
    await db()
      .transaction()
      .execute(async (trx) => {
        const tx = await lockTransaction(trx, principal.transactionId);
        if (!(await stillAuthorizing(trx, attemptId))) return;
        await updateAttempt(trx, attemptId, { status: "failed", failureReason: "processor_error" });
        if (tx.status === "awaiting_otp") await transition(trx, tx, "pending");
      });
    if (err instanceof AppError) throw err;
    throw new AppError(
      "service_unavailable",
      "The card processor did not answer; nothing was charged. Try again.",
    );
  }
}

async function applyCardOutcome(input: {
  principal: AccessCodePrincipal;
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
        .select(["status", "failure_reason"])
        .where("id", "=", attemptId)
        .executeTakeFirstOrThrow();
      if (current.status !== "authorizing") {
        // Card reconciliation settled this attempt while its answer was on the way: that settlement stands.
        if (current.status === "success") return { ...base, status: "success" };
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
        if (tx.status === "awaiting_otp") await transition(trx, tx, "pending");
        return { ...base, status: "failed", reason: outcome.reason, message: outcome.message };
      }
      if (outcome.kind === "otp_required") {
        const status: AttemptStatus = isTerminal(tx.status) ? "failed" : "awaiting_otp";
        await updateAttempt(trx, attemptId, {
          status,
          details: { ...input.summary, authorization: outcome.authorization },
          ...(status === "failed" && { failureReason: "transaction_closed" }),
        });
        if (status === "failed")
          return {
            ...base,
            status: "failed",
            reason: "transaction_closed",
            message: `This payment is already ${tx.status}.`,
          };
        await transition(trx, tx, "awaiting_otp");
        return { ...base, status: "awaiting_otp", message: outcome.message };
      }
      if ((await captureCard(trx, tx, attemptId)) === "credited") return { ...base, status: "success" };
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

async function stillAuthorizing(trx: Trx, attemptId: string): Promise<boolean> {
  const row = await trx
    .selectFrom("charge_attempts")
    .select("status")
    .where("id", "=", attemptId)
    .executeTakeFirst();
  return row?.status === "authorizing";
}

/**
 * The network captured the card's money for `attemptId` (under the transaction's row lock, `tx` as read with
 * it): credit the transaction if it is still open; if something else paid or ended it meanwhile, the captured
 * money becomes an automatic refund.
 */
export async function captureCard(
  trx: Trx,
  tx: TransactionRow,
  attemptId: string,
): Promise<"credited" | "refunded"> {
  const captured = channelAmounts(tx, "card").totalMinor;
  await updateAttempt(trx, attemptId, { status: "authorizing", capturedMinor: captured });
  if (!isTerminal(tx.status)) {
    await completePayment(trx, tx, { channel: "card", attemptId });
    return "credited";
  }
  await updateAttempt(trx, attemptId, { status: "refunded" });
  await recordAutomaticRefund(trx, {
    tx,
    source: "card",
    sourceId: attemptId,
    amountMinor: captured,
    currency: tx.currency,
    reason: tx.status === "success" ? "duplicate_payment" : "late_payment",
  });
  return "refunded";
}
