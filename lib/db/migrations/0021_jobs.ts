import type { Kysely } from "kysely";
import type { Migration } from "kysely/migration";

/**
 * The schedule of the recurring background jobs (lib/jobs/runner.ts): one row per job, claimed by one process
 * at a time for a lease, rescheduled when it finishes (or, after a failure, with backoff).
 * Released: never edit it (lib/db/migrations/index.ts).
 */
export const migration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable("jobs")
      .addColumn("id", "text", (c) => c.primaryKey())
      .addColumn("status", "text", (c) => c.notNull())
      .addColumn("due_at", "bigint", (c) => c.notNull())
      .addColumn("locked_until", "bigint")
      .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
      .addColumn("error", "text")
      .addColumn("finished_at", "bigint")
      .execute();
  },
};
