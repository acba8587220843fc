import type { Kysely } from "kysely";
import type { Migration } from "kysely/migration";

/**
 * The receipts outbox.
 * Released: never edit it (lib/db/migrations/index.ts).
 */
export const migration: Migration = {
  async up(db: Kysely<unknown>) {
    // Receipts to send after a payment succeeds (lib/receipts): written in the same database transaction as
    // the success, sent in the background by whichever process claims them. One per payment and kind.
    await db.schema
      .createTable("receipts")
      .addColumn("id", "text", (c) => c.primaryKey())
      .addColumn("transaction_id", "text", (c) => c.notNull())
      .addColumn("attempt_id", "text")
      .addColumn("kind", "text", (c) => c.notNull())
      .addColumn("recipient", "text", (c) => c.notNull())
      .addColumn("status", "text", (c) => c.notNull())
      .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
      .addColumn("due_at", "bigint", (c) => c.notNull())
      .addColumn("locked_until", "bigint")
      .addColumn("error", "text")
      .addColumn("created_at", "bigint", (c) => c.notNull())
      .addColumn("sent_at", "bigint")
      .execute();
    await db.schema
      .createIndex("receipts_transaction_kind")
      .unique()
      .on("receipts")
      .columns(["transaction_id", "kind"])
      .execute();
    await db.schema.createIndex("receipts_due").on("receipts").columns(["status", "due_at"]).execute();
  },
};
