import { sql } from "kysely";
import { type AuditContext, recordAudit } from "@/lib/audit/record";
import { assertServedMode } from "@/lib/core/assert-served-mode";
import { AppError, invalidField } from "@/lib/core/errors";
import { db } from "@/lib/db/client";
import { isUniqueViolation } from "@/lib/db/errors";
import { type Mode, toMinor } from "@/lib/db/schema";
import type { TransactionRow, Trx } from "@/lib/db/types";
import { formatAmount, parseAmount } from "@/lib/money/amount";
import type { Currency } from "@/lib/money/currencies";
import { lockTransaction } from "@/lib/payments/state-machine";
import { pepper } from "@/lib/security/pepper";
import { keyedHash, randomString } from "@/lib/security/tokens";
import { emitEvent } from "@/lib/webhooks/emit-event";
import { chargeOfMoney } from "./charge-of-money";
import { presentRefund } from "./present";
import { firstDueAt, scheduleRefund } from "./settle-refund";

export function newRefundId(): string {
  return `rfd_${randomString(24)}`;
}

/**
 * What the merchant may still refund on a transaction, in minor units: the amount of a paid transaction
 * (fees are not returned), plus automatic refunds that failed (that money came back to the merchant), less
 * merchant refunds not failed.
 */
export function refundableMinor(tx: TransactionRow): bigint {
  const paid = tx.status === "success" ? toMinor(tx.amount_minor) : 0n;
  return paid + toMinor(tx.refund_credit_minor) - toMinor(tx.amount_refunded_minor);
}

/** `source` of a merchant refund asked for with an `Idempotency-Key`; `source_id` is the key's keyed hash. */
const IDEMPOTENCY_SOURCE = "idempotency_key";

/**
 * POST /refunds (docs/refunds.md): refund all or part of what is refundable on the merchant's own transaction.
 * The transaction's row is locked while the balance is read and the refund written, so concurrent refunds
 * (any process, any instance) queue and never exceed it. With an `Idempotency-Key`, the key (hashed with the
 * pepper, scoped to the merchant and mode) is written with the refund in the same database transaction, so a
 * retry with the key finds the refund it made even when the stored answer was lost (a crash between the
 * refund's commit and the answer's): the same refund is answered, never a second one.
 */
export async function createRefund(input: {
  merchantId: string;
  mode: Mode;
  reference: string;
  amount?: string;
  reason?: string;
  idempotencyKey?: string | null;
  /** Who asked (recorded in the audit log with the refund, in its transaction). */
  audit?: AuditContext;
}) {
  assertServedMode(input.mode);
  const found = await db()
    .selectFrom("transactions")
    .select(["id", "currency"])
    .where("reference", "=", input.reference)
    .where("merchant_id", "=", input.merchantId)
    .where("mode", "=", input.mode)
    .executeTakeFirst();
  if (!found) {
    throw new AppError(
      "transaction_not_found",
      `reference: no transaction ${input.reference} in ${input.mode} mode.`,
    );
  }
  // A malformed amount is a 400 whatever the transaction's state (the currency never changes).
  let requested: bigint | undefined;
  if (input.amount !== undefined) {
    const parsed = parseAmount(input.amount, found.currency as Currency);
    if (!parsed.ok) throw invalidField("amount", parsed.rule, `amount ${parsed.reason}`);
    requested = parsed.minor;
  }
  const keyId = input.idempotencyKey
    ? keyedHash(
        await pepper(),
        JSON.stringify(["refund", input.merchantId, input.mode, input.idempotencyKey]),
      )
    : null;
  // Two requests with one key for refunds of two payments lock two different rows, so on PostgreSQL both can
  // find no refund with the key and insert one: the refund's unique key on its source refuses the second, whose
  // database transaction is then rolled back whole. Run again, it finds the first one's refund and answers as a
  // repeat would (the same refund, or 422 for another), never a 500.
  const made = await retryOnceOnKeyClash(keyId !== null, () =>
    db()
      .transaction()
      .execute(async (trx) => {
        const tx = await lockTransaction(trx, found.id);
        if (keyId !== null) {
          const earlier = await trx
            .selectFrom("refunds")
            .selectAll()
            .where("source", "=", IDEMPOTENCY_SOURCE)
            .where("source_id", "=", keyId)
            .executeTakeFirst();
          if (earlier) {
            const same =
              earlier.transaction_id === tx.id &&
              (requested === undefined || toMinor(earlier.amount_minor) === requested) &&
              earlier.reason === (input.reason ?? null);
            if (!same) {
              throw new AppError(
                "idempotency_key_reused",
                "This Idempotency-Key was already used for another refund; use a new key for a new refund.",
              );
            }
            return { row: earlier, replayed: true };
          }
        }
        const currency = tx.currency as Currency;
        const refundable = refundableMinor(tx);
        if (tx.status !== "success" && refundable <= 0n) {
          throw new AppError(
            "invalid_state",
            `reference: only a successful payment can be refunded; transaction ${tx.reference} is ${tx.status}.`,
          );
        }
        const amount = requested ?? refundable;
        if (refundable <= 0n) {
          throw new AppError(
            "refund_exceeds_available",
            `amount: nothing is left to refund on ${tx.reference}; it is refunded in full.`,
          );
        }
        if (amount > refundable) {
          throw new AppError(
            "refund_exceeds_available",
            `amount: ${formatAmount(amount, currency)} is more than the ${formatAmount(refundable, currency)} ${currency} still refundable on ${tx.reference}.`,
          );
        }
        const row = await insertRefund(trx, tx, {
          type: "merchant",
          reason: input.reason ?? null,
          amountMinor: amount,
          source: keyId === null ? null : IDEMPOTENCY_SOURCE,
          sourceId: keyId,
        });
        if (input.audit)
          await recordAudit(
            trx,
            input.audit,
            "refund.create",
            `${row.id} on ${tx.reference}: ${formatAmount(amount, currency)} ${currency}`,
          );
        return { row, replayed: false };
      }),
  );
  if (!made.replayed) scheduleRefund(made.row.id, made.row.due_at);
  return presentRefund(made.row);
}

/** `run` again once when it failed on a unique key, if `keyed`; any other failure, or a second one, stands. */
async function retryOnceOnKeyClash<T>(keyed: boolean, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    if (!keyed || !isUniqueViolation(err)) throw err;
    return run();
  }
}

async function insertRefund(
  trx: Trx,
  tx: TransactionRow,
  input: {
    type: "merchant" | "automatic";
    reason: string | null;
    amountMinor: bigint;
    source: string | null;
    sourceId: string | null;
    /** The rail returned the money by itself (Paystack refunds a rejected transfer): recorded as processed. */
    returnedByRail?: boolean;
  },
) {
  const now = Date.now();
  const { rail, chargeReference } = await chargeOfMoney(trx, { tx, ...input });
  const returned = input.returnedByRail === true;
  const row = {
    id: newRefundId(),
    transaction_id: tx.id,
    merchant_id: tx.merchant_id,
    mode: tx.mode,
    reference: tx.reference,
    type: input.type,
    reason: input.reason,
    amount_minor: input.amountMinor,
    currency: tx.currency,
    status: returned ? "processed" : "pending",
    source: input.source,
    source_id: input.sourceId,
    rail,
    rail_reference: returned ? `${rail}:returned` : null,
    charge_reference: chargeReference,
    failure_reason: null,
    due_at: firstDueAt(rail, now),
    created_at: now,
    processed_at: returned ? now : null,
    updated_at: now,
  };
  await trx.insertInto("refunds").values(row).execute();
  if (returned) await emitEvent(trx, tx, "refund.processed", row.id, presentRefund(row));
  if (input.type === "merchant") {
    await trx
      .updateTable("transactions")
      .set({ amount_refunded_minor: sql`amount_refunded_minor + ${input.amountMinor}` })
      .where("id", "=", tx.id)
      .execute();
  }
  return row;
}

export type AutomaticReason = "amount_mismatch" | "duplicate_payment" | "late_payment" | "unknown_account";

/**
 * Money that reached the service but must not be credited becomes an automatic refund to the payer, inside
 * the caller's database transaction (the transaction's row locked, when there is one). `sourceId` (the inbound
 * transfer or the attempt) is unique: the same money is never refunded twice.
 */
export async function recordAutomaticRefund(
  trx: Trx,
  input: {
    tx: TransactionRow | null;
    /** The rail the money came in on, when no transaction owns it (a transfer to an unknown account). */
    inboundRail?: string;
    source: string;
    sourceId: string;
    amountMinor: bigint;
    currency: string;
    reason: AutomaticReason;
    /** The rail gave the money back by itself: the refund is recorded as processed, and nothing is asked. */
    returnedByRail?: boolean;
  },
): Promise<void> {
  if (input.tx) {
    const row = await insertRefund(trx, input.tx, {
      type: "automatic",
      reason: input.reason,
      amountMinor: input.amountMinor,
      source: input.source,
      sourceId: input.sourceId,
      returnedByRail: input.returnedByRail,
    });
    if (row.status === "pending") scheduleRefund(row.id, row.due_at);
    return;
  }
  const now = Date.now();
  const rail = input.inboundRail?.startsWith("sandbox") ? "sandbox" : (input.inboundRail ?? "live");
  // On a merchant's own sandbox rail (sandboxRail) the money was that merchant's test money: the refund is
  // theirs to see (GET /v1/refunds). On a real rail it belongs to no merchant.
  const sandboxOwner = input.inboundRail?.startsWith("sandbox:") ? input.inboundRail.slice(8) : null;
  const dueAt = firstDueAt(rail, now);
  const id = newRefundId();
  await trx
    .insertInto("refunds")
    .values({
      id,
      transaction_id: null,
      merchant_id: sandboxOwner,
      mode: sandboxOwner ? "test" : null,
      reference: null,
      type: "automatic",
      reason: input.reason,
      amount_minor: input.amountMinor,
      currency: input.currency,
      status: "pending",
      source: input.source,
      source_id: input.sourceId,
      rail,
      rail_reference: null,
      charge_reference: null,
      failure_reason: null,
      due_at: dueAt,
      created_at: now,
      processed_at: null,
      updated_at: now,
    })
    .execute();
  scheduleRefund(id, dueAt);
}
