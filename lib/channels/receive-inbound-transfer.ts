import { AppError } from "@/lib/core/errors";
import { db } from "@/lib/db/client";
import { toMillis, toMinor } from "@/lib/db/schema";
import type { Trx } from "@/lib/db/types";
import { env } from "@/lib/env";
import { formatAmount } from "@/lib/money/amount";
import type { Currency } from "@/lib/money/currencies";
import { lockTransaction, transition } from "@/lib/payments/state-machine";
import { isTerminal } from "@/lib/payments/status";
import { recordAutomaticRefund } from "@/lib/refunds/create-refund";
import { newId } from "@/lib/security/tokens";
import { emitEvent } from "@/lib/webhooks/emit-event";
import { updateAttempt } from "./attempts";
import { completePayment } from "./complete-payment";
import { heldOnAccount, releaseHeldTransfers } from "./held-transfers";

/** A processor charge's account: recorded, or (its issuer died first) what the charge was asked for. */
async function processorAccount(trx: Trx, attemptId: string) {
  const recorded = await trx
    .selectFrom("virtual_accounts")
    .selectAll()
    .where("attempt_id", "=", attemptId)
    .executeTakeFirst();
  if (recorded) return recorded;
  const charge = await trx
    .selectFrom("rail_charges")
    .selectAll()
    .where("attempt_id", "=", attemptId)
    .executeTakeFirst();
  if (!charge) return undefined;
  return {
    transaction_id: charge.transaction_id,
    attempt_id: attemptId,
    account_number: "",
    expected_minor: charge.amount_minor,
    currency: charge.currency,
    expires_at: toMillis(charge.created_at) + env().BANK_TRANSFER_WINDOW_SECONDS * 1000,
  };
}

export type TransferOutcome =
  | "credited"
  | "amount_mismatch"
  | "duplicate_payment"
  | "late_payment"
  | "unknown_account";

/**
 * The rail name of a merchant's sandbox transfers. Session ids are unique per rail, and sandbox session ids
 * are chosen by merchants (`POST /sandbox/transfers`), so each merchant's sandbox is a rail of its own: one
 * merchant's `sessionId` can never replay, or reveal, another's transfer.
 */
export function sandboxRail(merchantId: string): string {
  return `sandbox:${merchantId}`;
}

/**
 * The one path every inbound transfer takes, from a real rail's notification or the sandbox door.
 * In one database transaction:
 *  1. record the transfer under its (rail, sessionId); a sessionId seen before answers the first outcome
 *     and changes nothing (the same bank notification twice credits once); a sessionId seen before with
 *     another account or amount is not a repeat but a conflict, refused (422) with nothing changed;
 *  2. find the virtual account and lock its transaction;
 *  3. inside the window on an open transaction, transfers to the account add up: once the sum reaches the
 *     amount the payment completes (success), the transfers held before credited with this one, and any
 *     excess refunded automatically (reason `amount_mismatch`); while it is short the transfer is held
 *     (`partial` = held), the transaction stays awaiting_transfer and `checkout.amount_mismatch` says what
 *     is still due (lib/channels/held-transfers.ts gives held money back when it can no longer complete the
 *     payment); after success → duplicate payment; after the window or on a failed/abandoned transaction →
 *     late payment; both refunded whole, never credited.
 * Money in = credited + automatic refunds + held on an open window, always.
 */
export async function receiveInboundTransfer(input: {
  rail: string;
  sessionId: string;
  accountNumber: string;
  amountMinor: bigint;
  /**
   * A processor's transfer names its charge, not only an account (processors reuse numbers): the attempt of
   * that charge. Its account is found by the attempt, or, when the process issuing it died before recording
   * it, from the charge itself (rail_charges: what was asked, and when).
   */
  attemptId?: string;
  /** The rail returned this money to the sender itself (Paystack's rejected transfers): recorded, not asked. */
  returnedByRail?: boolean;
}) {
  return db()
    .transaction()
    .execute(async (trx) => {
      const now = Date.now();
      const transferId = newId();
      const inserted = await trx
        .insertInto("inbound_transfers")
        .values({
          id: transferId,
          rail: input.rail,
          session_id: input.sessionId,
          account_number: input.accountNumber,
          amount_minor: input.amountMinor,
          merchant_id: null,
          mode: null,
          transaction_id: null,
          outcome: "unknown_account",
          received_at: now,
        })
        .onConflict((oc) => oc.columns(["rail", "session_id"]).doNothing())
        .executeTakeFirst();
      if (Number(inserted.numInsertedOrUpdatedRows ?? 0n) !== 1) {
        const first = await trx
          .selectFrom("inbound_transfers")
          .selectAll()
          .where("rail", "=", input.rail)
          .where("session_id", "=", input.sessionId)
          .executeTakeFirstOrThrow();
        if (
          first.account_number !== input.accountNumber ||
          toMinor(first.amount_minor) !== input.amountMinor
        ) {
          throw new AppError(
            "idempotency_key_reused",
            `sessionId ${input.sessionId} was already used for a transfer of another amount or to another account; a repeat must be the same transfer.`,
          );
        }
        const reference = first.transaction_id
          ? (
              await trx
                .selectFrom("transactions")
                .select("reference")
                .where("id", "=", first.transaction_id)
                .executeTakeFirst()
            )?.reference
          : undefined;
        return {
          outcome: first.outcome as TransferOutcome,
          reference: reference ?? null,
          sessionId: first.session_id,
          replayed: true,
        };
      }

      const va = input.attemptId
        ? await processorAccount(trx, input.attemptId)
        : await trx
            .selectFrom("virtual_accounts")
            .selectAll()
            .where("account_number", "=", input.accountNumber)
            // A processor's accounts are found by their charge only (they hand numbers out again).
            .where("rail", "is", null)
            .executeTakeFirst();
      if (!va) {
        await recordAutomaticRefund(trx, {
          tx: null,
          inboundRail: input.rail,
          source: "bank_transfer",
          sourceId: transferId,
          amountMinor: input.amountMinor,
          currency: "NGN",
          reason: "unknown_account",
        });
        return {
          outcome: "unknown_account" as TransferOutcome,
          reference: null,
          sessionId: input.sessionId,
          replayed: false,
        };
      }

      const tx = await lockTransaction(trx, va.transaction_id);
      const expected = toMinor(va.expected_minor);
      const currency = va.currency as Currency;
      let outcome: TransferOutcome;
      // Inside the window, what arrived on this account before adds up with this transfer.
      let heldBefore = 0n;
      if (tx.status === "success") outcome = "duplicate_payment";
      else if (isTerminal(tx.status) || toMillis(va.expires_at) <= now) outcome = "late_payment";
      // Money the rail gave back itself never pays and is never held: the right amount refused by the rail came
      // too late for it; a wrong amount (a processor's temporary account takes the exact amount only) is a
      // mismatch the customer is told about, already back with them.
      else if (input.returnedByRail)
        outcome = input.amountMinor === expected ? "late_payment" : "amount_mismatch";
      else {
        heldBefore = await heldOnAccount(trx, tx.id, va.account_number);
        outcome = heldBefore + input.amountMinor >= expected ? "credited" : "amount_mismatch";
      }
      const received = heldBefore + input.amountMinor;
      // What the customer still has to send: all of it when the rail returned this transfer.
      const due = input.returnedByRail ? expected - heldBefore : expected - received;

      await trx
        .updateTable("inbound_transfers")
        .set({
          merchant_id: tx.merchant_id,
          mode: tx.mode,
          transaction_id: tx.id,
          outcome,
          partial: outcome === "amount_mismatch" && !input.returnedByRail ? "held" : null,
        })
        .where("id", "=", transferId)
        .execute();

      let excess = 0n;
      if (outcome === "credited") {
        // The transfers held on this account are part of the payment now, with this one.
        if (heldBefore > 0n) {
          await trx
            .updateTable("inbound_transfers")
            .set({ partial: "credited" })
            .where("transaction_id", "=", tx.id)
            .where("account_number", "=", va.account_number)
            .where("partial", "=", "held")
            .execute();
        }
        await completePayment(trx, tx, { channel: "bank_transfer", attemptId: va.attempt_id });
        // More than the amount: the payment is made, and what is over goes back to the payer.
        excess = received - expected;
        if (excess > 0n) {
          await recordAutomaticRefund(trx, {
            tx,
            source: "bank_transfer",
            sourceId: transferId,
            amountMinor: excess,
            currency: va.currency,
            reason: "amount_mismatch",
          });
        }
      } else if (outcome === "amount_mismatch") {
        // Too little so far: held on the account, which waits for the rest until its window ends. Money the rail
        // returned itself is recorded as an automatic refund it already made.
        if (input.returnedByRail) {
          await recordAutomaticRefund(trx, {
            tx,
            source: "bank_transfer",
            sourceId: transferId,
            amountMinor: input.amountMinor,
            currency: va.currency,
            reason: "amount_mismatch",
            returnedByRail: true,
          });
        }
        const moved = await transition(trx, tx, "awaiting_transfer", {
          mismatch_expected_minor: expected,
          mismatch_received_minor: received,
        });
        await emitEvent(trx, moved, "checkout.amount_mismatch", transferId, {
          accountNumber: va.account_number,
          amountMismatch: {
            expected: formatAmount(expected, currency),
            received: formatAmount(received, currency),
            due: formatAmount(due, currency),
          },
        });
      } else {
        await recordAutomaticRefund(trx, {
          tx,
          source: "bank_transfer",
          sourceId: transferId,
          amountMinor: input.amountMinor,
          currency: va.currency,
          reason: outcome,
          returnedByRail: input.returnedByRail,
        });
        if (outcome === "late_payment" && !isTerminal(tx.status)) {
          await updateAttempt(trx, va.attempt_id, { status: "failed", failureReason: "window_expired" });
          // What this account held can no longer complete the payment.
          await releaseHeldTransfers(trx, tx, { expiredBy: now });
        }
      }
      return {
        outcome,
        reference: tx.reference,
        sessionId: input.sessionId,
        replayed: false,
        amount: formatAmount(input.amountMinor, currency),
        expected: formatAmount(expected, currency),
        ...(outcome === "amount_mismatch" && { due: formatAmount(due, currency) }),
        ...(excess > 0n && { refunded: formatAmount(excess, currency) }),
      };
    });
}
