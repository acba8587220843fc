import type { Updateable } from "kysely";
import { settleInvoicePayment } from "@/lib/billing/settle-invoice";
import { startSubscriptionFromCheckout } from "@/lib/billing/start-from-checkout";
import { AppError } from "@/lib/core/errors";
import { database } from "@/lib/db/client";
import type { TransactionsTable } from "@/lib/db/schema";
import type { TransactionRow, Trx } from "@/lib/db/types";
import { emitEvent } from "@/lib/webhooks/emit-event";
import { isTerminal, OPEN_STATUSES, type TransactionStatus } from "./status";

/**
 * The transaction state machine (docs/states.md), the one place a transaction's status changes.
 *
 *   pending ──charge──▶ awaiting_{transfer, bank_authorization, ussd, otp} ──▶ success | failed | abandoned
 *      ▲                          │  (a failed attempt returns to pending; switching channel moves between
 *      └──────────────────────────┘   awaiting states)
 *
 * Every change is a compare-and-set (`UPDATE … WHERE id = ? AND status = <the status read>`) inside the
 * caller's database transaction, after `lockTransaction` has locked the row (PostgreSQL `FOR UPDATE`; SQLite
 * transactions are `BEGIN IMMEDIATE`, which locks the database). Nothing relies on a process-local lock, so
 * several app instances on one PostgreSQL stay correct.
 */

/** Allowed next statuses. Terminal statuses have none: `success` happens at most once and is final. */
export const TRANSITIONS: Record<TransactionStatus, readonly TransactionStatus[]> = {
  pending: [...OPEN_STATUSES.filter((s) => s !== "pending"), "success", "failed", "abandoned"],
  awaiting_transfer: [
    ...OPEN_STATUSES.filter((s) => s !== "awaiting_transfer"),
    "success",
    "failed",
    "abandoned",
  ],
  awaiting_bank_authorization: [
    ...OPEN_STATUSES.filter((s) => s !== "awaiting_bank_authorization"),
    "success",
    "failed",
    "abandoned",
  ],
  awaiting_ussd: [...OPEN_STATUSES.filter((s) => s !== "awaiting_ussd"), "success", "failed", "abandoned"],
  awaiting_otp: [...OPEN_STATUSES.filter((s) => s !== "awaiting_otp"), "success", "failed", "abandoned"],
  success: [],
  failed: [],
  abandoned: [],
};

export function canTransition(from: string, to: TransactionStatus): boolean {
  return (TRANSITIONS[from as TransactionStatus] ?? []).includes(to);
}

/** Read the transaction and lock its row for the rest of the database transaction. */
export async function lockTransaction(trx: Trx, transactionId: string): Promise<TransactionRow> {
  let query = trx.selectFrom("transactions").selectAll().where("id", "=", transactionId);
  if (database().dialect === "postgres") query = query.forUpdate();
  const row = await query.executeTakeFirst();
  if (!row) throw new AppError("transaction_not_found", "The transaction no longer exists.");
  return row;
}

/** Refuse any action on a finished transaction with 409 `invalid_state`. */
export function assertOpen(row: TransactionRow, action: string): void {
  if (isTerminal(row.status)) {
    throw new AppError(
      "invalid_state",
      `Cannot ${action}: transaction ${row.reference} is already ${row.status}.`,
    );
  }
}

/**
 * Move `row` (as read under lock) to `to`, with any other column changes, by compare-and-set. Throws 409
 * `invalid_state` for a transition the machine does not allow or when the row changed since it was read.
 * Moving to the status it already has is a no-op apart from `patch`.
 */
export async function transition(
  trx: Trx,
  row: TransactionRow,
  to: TransactionStatus,
  patch: Omit<Updateable<TransactionsTable>, "status" | "id"> = {},
): Promise<TransactionRow> {
  if (row.status !== to && !canTransition(row.status, to)) {
    throw new AppError(
      "invalid_state",
      `Transaction ${row.reference} cannot go from ${row.status} to ${to}.`,
    );
  }
  const now = Date.now();
  const result = await trx
    .updateTable("transactions")
    .set({ ...patch, status: to, updated_at: now })
    .where("id", "=", row.id)
    .where("status", "=", row.status)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) !== 1) {
    throw new AppError(
      "invalid_state",
      `Transaction ${row.reference} changed while this request ran; retry.`,
    );
  }
  const next: TransactionRow = { ...row, ...(patch as Partial<TransactionRow>), status: to, updated_at: now };
  // Reaching a terminal status is the state change merchants hear about; its events commit with it.
  if (row.status !== to && isTerminal(to)) {
    if (to === "success") await emitEvent(trx, next, "payment.completed", row.id);
    if (to === "failed") await emitEvent(trx, next, "payment.failed", row.id);
    await emitEvent(trx, next, "checkout.completed", row.id);
    // A subscription's invoice is settled by its payment's end, in the same database transaction.
    if (next.invoice_id) await settleInvoicePayment(trx, next);
    // A payment from initialize with `plan`: its success starts the subscription, in the same transaction.
    else if (to === "success" && next.plan_id) await startSubscriptionFromCheckout(trx, next);
  }
  return next;
}
