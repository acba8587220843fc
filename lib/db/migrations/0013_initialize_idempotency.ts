import type { Kysely } from "kysely";
import type { Migration } from "kysely/migration";

/**
 * An initialize's Idempotency-Key (a keyed hash) kept on the transaction it made.
 * Released: never edit it (lib/db/migrations/index.ts).
 */
export const migration: Migration = {
  async up(db: Kysely<unknown>) {
    // An initialize asked for with an Idempotency-Key keeps the key (a keyed hash) on the transaction it
    // made, in the same database transaction: a retry whose first run committed but never stored its
    // answer (its process died in between) finds that transaction instead of making a second one.
    await db.schema.alterTable("transactions").addColumn("idempotency_ref", "text").execute();
    await db.schema.alterTable("transactions").addColumn("idempotency_request_hash", "text").execute();
    // Unique where set (both databases let any number of rows hold null).
    await db.schema
      .createIndex("transactions_idempotency_ref")
      .unique()
      .on("transactions")
      .column("idempotency_ref")
      .execute();
  },
};
