import { sql } from "kysely";
import { db } from "@/lib/db/client";
import { toMillis } from "@/lib/db/schema";
import { env } from "@/lib/env";
import { type Job, recurringJob } from "@/lib/jobs/runner";
import { log } from "@/lib/log";
import { lockTransaction, transition } from "@/lib/payments/state-machine";
import { isTerminal, OPEN_STATUSES } from "@/lib/payments/status";
import { cardInFlight } from "./card-in-flight";
import { releaseExpiredHolds, releaseHeldTransfers } from "./held-transfers";
import { openVirtualAccount } from "./open-virtual-account";

/**
 * A checkout still open, its statuses inlined as literals: SQLite uses the partial index
 * `transactions_open_expiry` (migration 0007) only for a query whose condition matches the index's own,
 * and bound parameters never do. The index test checks the plan still uses it.
 */
const OPEN_CHECKOUT = sql<boolean>`status in (${sql.join(OPEN_STATUSES.map((s) => sql.lit(s)))})`;

/** The query a sweep pass starts from (exported for the test that checks its plan uses the index). */
export function expiredCheckoutsQuery(now: number, limit: number) {
  return db()
    .selectFrom("transactions")
    .select("id")
    .where(OPEN_CHECKOUT)
    .where("access_expires_at", "<=", now)
    .orderBy("access_expires_at")
    .limit(limit);
}

/**
 * End the checkouts that expired unpaid: each becomes `abandoned` through the state machine (docs/states.md:
 * "cancelled, or the session expired unpaid"), so verify reports a final status and the merchant receives
 * `checkout.completed` with `status: abandoned`, once, like a cancel. Each transaction is locked and checked
 * again before it moves: a payment that lands meanwhile, another process's sweep, a card payment still at
 * the network, or a bank transfer window still open (money may still arrive; a checkout made before
 * checkouts were extended to their window) all leave it as it is. Returns how many were due and how many this pass ended.
 */
export async function abandonExpiredCheckouts(now = Date.now(), limit = 100) {
  const due = await expiredCheckoutsQuery(now, limit).execute();
  let ended = 0;
  for (const { id } of due) {
    try {
      if (await abandonIfExpired(id, now)) ended++;
    } catch (err) {
      // One transaction that cannot be ended must not hold up the others behind it.
      log.error("expired checkout not ended", {
        transactionId: id,
        error: err instanceof Error ? err.message : String(err),
      });
    }
  }
  return { due: due.length, ended };
}

/**
 * End one checkout if it has expired unpaid at `now` (the sweep's rule, for one transaction: the sandbox
 * clock uses it too). Locks the row and checks again; true when it moved to `abandoned`.
 */
export async function abandonIfExpired(transactionId: string, now = Date.now()): Promise<boolean> {
  return db()
    .transaction()
    .execute(async (trx) => {
      const tx = await lockTransaction(trx, transactionId);
      if (isTerminal(tx.status) || toMillis(tx.access_expires_at) > now) return false;
      if (await openVirtualAccount(trx, transactionId, now)) return false;
      // Pay pressed just before the expiry: the card network's answer decides, not the clock.
      if (await cardInFlight(trx, transactionId)) return false;
      await releaseHeldTransfers(trx, tx);
      await transition(trx, tx, "abandoned");
      return true;
    });
}

const BATCH = 100;

/** The checkout expiry job's name on the runner (lib/jobs/runner.ts). */
export const CHECKOUT_EXPIRY_JOB = "checkout-expiry";

/**
 * The checkout expiry sweep as a job on the runner, every CHECKOUT_EXPIRY_SWEEP_SECONDS (60; 0 turns it off)
 * across the processes sharing the database: the expired checkouts are ended in batches until nothing more
 * is due (or a batch ends nothing, all of it waiting on a window), then money held on accounts whose window
 * has ended is refunded (lib/channels/held-transfers.ts). Each transaction is locked and checked again
 * before it moves, so none is ended twice even if two sweeps overlap.
 */
export function checkoutExpiryJob(): Job | null {
  const seconds = env().CHECKOUT_EXPIRY_SWEEP_SECONDS;
  if (seconds === 0) return null;
  return recurringJob({
    name: CHECKOUT_EXPIRY_JOB,
    title: "checkout expiry sweep",
    everyMs: seconds * 1000,
    run: sweepExpired,
  });
}

async function sweepExpired(): Promise<void> {
  const failures: unknown[] = [];
  try {
    for (;;) {
      const { due, ended } = await abandonExpiredCheckouts(Date.now(), BATCH);
      if (ended > 0) log.info("expired checkouts abandoned", { count: ended });
      if (due < BATCH || ended === 0) break;
    }
  } catch (err) {
    failures.push(err);
  }
  try {
    // Transfers of too little on accounts whose window has ended can no longer complete a payment.
    for (;;) {
      const released = await releaseExpiredHolds(Date.now(), BATCH);
      if (released > 0) log.info("held transfers refunded", { transactions: released });
      if (released < BATCH) break;
    }
  } catch (err) {
    failures.push(err);
  }
  // The runner logs the failure and tries again sooner, with backoff.
  if (failures.length === 1) throw failures[0];
  if (failures.length > 1) throw new AggregateError(failures, failures.map((e) => String(e)).join("; "));
}
