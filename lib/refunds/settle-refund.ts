import { sql } from "kysely";
import { db } from "@/lib/db/client";
import { toMillis } from "@/lib/db/schema";
import type { Trx } from "@/lib/db/types";
import { env } from "@/lib/env";
import { type Job, later, recurringJob } from "@/lib/jobs/runner";
import { log } from "@/lib/log";
import { lockTransaction } from "@/lib/payments/state-machine";
import { RailRefusal } from "@/lib/rails/errors";
import { railsOfCharge } from "@/lib/rails/rails-for";
import { sandboxRails } from "@/lib/rails/sandbox";
import type { RefundRail, RefundStatus } from "@/lib/rails/types";
import { emitEvent } from "@/lib/webhooks/emit-event";
import { presentRefund, type RefundRow } from "./present";

/** The rails that settle refunds: the sandbox, and the processors (with the key of the charge they return). */
const SETTLING_RAILS = ["sandbox", "paystack"];

/**
 * The rail a refund goes back through: the sandbox, or the processor that took the money with the key that
 * took it (rail_charges of its charge). None when this deployment cannot settle it (money taken live before
 * processors, or a key the merchant has since removed): it stays pending, and is logged.
 */
export async function refundRailOf(refund: RefundRow): Promise<RefundRail | undefined> {
  if (refund.rail === "sandbox") return sandboxRails.refunds;
  if (
    !SETTLING_RAILS.includes(refund.rail) ||
    !refund.merchant_id ||
    !refund.mode ||
    !refund.charge_reference
  )
    return undefined;
  const charge = await db()
    .selectFrom("rail_charges")
    .select(["rail", "key_source"])
    .where("rail_reference", "=", refund.charge_reference)
    .executeTakeFirst();
  if (!charge) return undefined;
  try {
    return (await railsOfCharge({ merchantId: refund.merchant_id, mode: refund.mode, charge })).refunds;
  } catch (err) {
    log.warn("refund has no rail", {
      refundId: refund.id,
      error: err instanceof Error ? err.message : String(err),
    });
    return undefined;
  }
}

/** When a new refund on `rail` is first looked at. */
export function firstDueAt(rail: string, now: number): number {
  return rail === "sandbox" ? now + env().SANDBOX_REFUND_DELAY_MS : now;
}

/** How soon a refund the rail still calls pending is asked about again: processors take days, not seconds. */
function recheckMs(rail: string): number {
  return rail === "sandbox" ? 5_000 : 10 * 60_000;
}

/**
 * Settle a pending refund as the rail reported it, once: the refund and its transaction are locked (the
 * transaction first, as every other writer of the transaction does), the refund moves by compare-and-set, and
 * its event is written to the outbox in the same database transaction. A failed refund puts its money back in
 * the transaction's refundable balance. Returns the refund as it now is (unchanged when it was already settled).
 */
export async function settleRefund(
  refundId: string,
  outcome: Exclude<RefundStatus, { status: "pending" }>,
): Promise<RefundRow | undefined> {
  return db()
    .transaction()
    .execute(async (trx) => {
      const first = await trx.selectFrom("refunds").selectAll().where("id", "=", refundId).executeTakeFirst();
      if (!first) return undefined;
      const tx = first.transaction_id ? await lockTransaction(trx, first.transaction_id) : undefined;
      const refund = await trx
        .selectFrom("refunds")
        .selectAll()
        .where("id", "=", refundId)
        .executeTakeFirstOrThrow();
      if (refund.status !== "pending") return refund;
      const now = Date.now();
      const patch =
        outcome.status === "processed"
          ? { status: "processed", processed_at: now, updated_at: now }
          : { status: "failed", failure_reason: outcome.reason, processed_at: now, updated_at: now };
      const moved = await trx
        .updateTable("refunds")
        .set(patch)
        .where("id", "=", refundId)
        .where("status", "=", "pending")
        .executeTakeFirst();
      if (Number(moved.numUpdatedRows) !== 1) return refund;
      const settled: RefundRow = { ...refund, ...patch };
      if (tx && outcome.status === "failed") await returnToBalance(trx, settled);
      if (tx) {
        const type = outcome.status === "processed" ? "refund.processed" : "refund.failed";
        await emitEvent(trx, tx, type, refundId, presentRefund(settled));
      }
      return settled;
    });
}

/** A failed refund's money is the merchant's again to refund: out of the refunded total, or into the credit. */
async function returnToBalance(trx: Trx, refund: RefundRow): Promise<void> {
  if (!refund.transaction_id) return;
  const amount = refund.amount_minor;
  await trx
    .updateTable("transactions")
    .set(
      refund.type === "merchant"
        ? { amount_refunded_minor: sql`amount_refunded_minor - ${amount}` }
        : { refund_credit_minor: sql`refund_credit_minor + ${amount}` },
    )
    .where("id", "=", refund.transaction_id)
    .execute();
}

/** `rail_reference` while one process is asking the rail for the refund (a claim, not the rail's answer). */
const REQUESTING = "requesting";
/** How long a claim to ask the rail holds: a process that died holding it is taken over after this. */
const REQUEST_CLAIM_MS = 30_000;

/**
 * Move one pending refund along its rail: ask the rail for it if that was not done yet, then ask where it
 * stands and settle it when the rail has an answer. Safe to run from several processes at once: the rail is
 * asked by the one process that claims the refund (compare-and-set of `rail_reference` from null), so two
 * sweeps never send the same refund twice; a claim left by a process that died is taken over after
 * REQUEST_CLAIM_MS and the rail asked again with the same `refundId`, which a rail must treat as an
 * idempotency key (lib/rails/types.ts).
 */
export async function advanceRefund(refundId: string): Promise<void> {
  const refund = await db().selectFrom("refunds").selectAll().where("id", "=", refundId).executeTakeFirst();
  if (refund?.status !== "pending") return;
  const rail = await refundRailOf(refund);
  if (!rail) return;
  let railReference = refund.rail_reference;
  if (railReference === null || railReference === REQUESTING) {
    const now = Date.now();
    const claim = db()
      .updateTable("refunds")
      .set({ rail_reference: REQUESTING, updated_at: now })
      .where("id", "=", refund.id)
      .where("status", "=", "pending");
    const claimed = await (railReference === null
      ? claim.where("rail_reference", "is", null)
      : claim
          .where("rail_reference", "=", REQUESTING)
          .where("updated_at", "=", refund.updated_at)
          .where("updated_at", "<=", now - REQUEST_CLAIM_MS)
    ).executeTakeFirst();
    // Another process holds the claim (or just asked): it settles the refund, or the sweep does later.
    if (Number(claimed.numUpdatedRows) !== 1) return;
    let asked: { railReference: string };
    try {
      asked = await rail.refund({
        refundId: refund.id,
        amountMinor: BigInt(refund.amount_minor),
        currency: refund.currency,
        reference: refund.reference,
        chargeReference: refund.charge_reference,
        createdAt: toMillis(refund.created_at),
      });
    } catch (err) {
      // The rail refused for good: the refund fails (its money back in the refundable balance).
      if (err instanceof RailRefusal) {
        await settleRefund(refund.id, { status: "failed", reason: err.reason });
        return;
      }
      throw err;
    }
    railReference = asked.railReference;
    await db()
      .updateTable("refunds")
      .set({ rail_reference: railReference, updated_at: Date.now() })
      .where("id", "=", refund.id)
      .where("rail_reference", "=", REQUESTING)
      .execute();
  }
  const status = await rail.refundStatus({ refundId: refund.id, railReference });
  if (status.status === "pending") {
    // Asked again later, not on every pass.
    await db()
      .updateTable("refunds")
      .set({ due_at: Date.now() + recheckMs(refund.rail) })
      .where("id", "=", refund.id)
      .where("status", "=", "pending")
      .execute();
    return;
  }
  await settleRefund(refund.id, status);
}

/** The pending refunds due now on the rails this deployment has, oldest due first. */
export async function advanceDueRefunds(now = Date.now(), limit = 100): Promise<number> {
  const due = await db()
    .selectFrom("refunds")
    .select("id")
    .where("status", "=", "pending")
    .where("due_at", "<=", now)
    .where("rail", "in", SETTLING_RAILS)
    .orderBy("due_at")
    .limit(limit)
    .execute();
  for (const { id } of due) {
    try {
      await advanceRefund(id);
    } catch (err) {
      log.error("refund not advanced", {
        refundId: id,
        error: err instanceof Error ? err.message : String(err),
      });
    }
  }
  return due.length;
}

/** The refund settlement job's name on the runner (lib/jobs/runner.ts). */
export const REFUND_SETTLEMENT_JOB = "refund-settlement";

/**
 * Look at a new refund when it is due, from this process (the refund settlement job, which runs in every
 * process on the sweep's interval, catches those whose process ended first). Called inside or after the
 * database transaction that wrote it; a little slack lets that transaction commit first.
 */
export function scheduleRefund(refundId: string, dueAt: number | bigint | string): void {
  later(REFUND_SETTLEMENT_JOB, Math.max(toMillis(dueAt), Date.now()) + 50, () => advanceRefund(refundId));
}

/**
 * Refund settlement as a job on the runner, every CHECKOUT_EXPIRY_SWEEP_SECONDS (60; 0 turns it off) across the
 * processes sharing the database: pending refunds due on the rails this deployment has are moved along.
 */
export function refundSettlementJob(): Job | null {
  const seconds = env().CHECKOUT_EXPIRY_SWEEP_SECONDS;
  if (seconds === 0) return null;
  return recurringJob({
    name: REFUND_SETTLEMENT_JOB,
    title: "refund settlement",
    everyMs: seconds * 1000,
    run: async () => {
      await advanceDueRefunds();
    },
  });
}
