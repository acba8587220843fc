import type { Kysely, Selectable } from "kysely";
import { database, db } from "@/lib/db/client";
import type { Database, Int } from "@/lib/db/schema";

/** The tables whose rows are work to claim: each has `id`, `status`, `due_at` and `locked_until`. */
export type QueueTable = "webhook_deliveries" | "receipts" | "jobs" | "invoices" | "subscription_emails";

type QueueRow = { id: string; status: string; due_at: Int; locked_until: Int | null };

export type ClaimOptions = {
  now?: number;
  limit: number;
  /** How long the claim holds: after it, a claimant presumed dead loses the row and another takes it. */
  leaseMs: number;
  /** The status of a claimed row (`sending` for the outboxes, `running` for scheduled jobs). */
  claimed?: string;
  /** Only these rows (a scheduled job claims its own row by name). */
  ids?: string[];
};

/**
 * Claim due rows of a work table for this process: `pending` rows whose `due_at` has come, and claimed rows
 * whose lease (`locked_until`) ran out. Several processes may claim from one database at once: on PostgreSQL
 * the select takes the rows `FOR UPDATE SKIP LOCKED` (another claimant skips them rather than waiting), on
 * SQLite every transaction begins `IMMEDIATE` (lib/db/sqlite-driver.ts), so the select and the update run
 * under the database's write lock. Either way each row goes to exactly one claimant until its lease ends.
 * `takenOver` counts rows whose previous claimant's lease had run out.
 */
export async function claimDue<T extends QueueTable>(
  table: T,
  options: ClaimOptions,
): Promise<{ rows: Selectable<Database[T]>[]; takenOver: number }> {
  const now = options.now ?? Date.now();
  const claimed = options.claimed ?? "sending";
  // One query for every work table: each has the four columns this reads and writes.
  const queue = db() as unknown as Kysely<{ work: QueueRow }>;
  const work = table as unknown as "work";
  return queue.transaction().execute(async (trx) => {
    let query = trx
      .selectFrom(work)
      .select(["id", "status"])
      .where((eb) =>
        eb.or([
          eb.and([eb("status", "=", "pending"), eb("due_at", "<=", now)]),
          eb.and([eb("status", "=", claimed), eb("locked_until", "<", now)]),
        ]),
      )
      .orderBy("due_at")
      .limit(options.limit);
    if (options.ids) query = query.where("id", "in", options.ids);
    if (database().dialect === "postgres") query = query.forUpdate().skipLocked();
    const due = await query.execute();
    if (due.length === 0) return { rows: [], takenOver: 0 };
    const rows = await trx
      .updateTable(work)
      .set({ status: claimed, locked_until: now + options.leaseMs })
      .where(
        "id",
        "in",
        due.map((r) => r.id),
      )
      .returningAll()
      .execute();
    return {
      rows: rows as unknown as Selectable<Database[T]>[],
      takenOver: due.filter((r) => r.status === claimed).length,
    };
  });
}
