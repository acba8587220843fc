import type { Kysely } from "kysely";
import type { Migration } from "kysely/migration";

/**
 * Paystack: a merchant's processor connections, charges at a processor, processor events acted on, and the
 * processor references of refunds and virtual accounts.
 * Released: never edit it (lib/db/migrations/index.ts).
 */
export const migration: Migration = {
  async up(db: Kysely<unknown>) {
    // A merchant's own processor account per mode (lib/rails/paystack/connection.ts): its secret key,
    // sealed (lib/security/seal.ts), and its last four characters to show. One per merchant, mode, processor.
    await db.schema
      .createTable("processor_connections")
      .addColumn("id", "text", (c) => c.primaryKey())
      .addColumn("merchant_id", "text", (c) => c.notNull())
      .addColumn("mode", "text", (c) => c.notNull())
      .addColumn("processor", "text", (c) => c.notNull())
      .addColumn("secret_sealed", "text", (c) => c.notNull())
      .addColumn("key_last4", "text", (c) => c.notNull())
      .addColumn("created_at", "bigint", (c) => c.notNull())
      .addColumn("updated_at", "bigint", (c) => c.notNull())
      .addUniqueConstraint("processor_connections_merchant_mode", ["merchant_id", "mode", "processor"])
      .execute();

    // Every attempt that reached a processor, under the reference the processor knows it by, written in
    // the attempt's own database transaction before the processor is called: its webhook, a lost answer's
    // reconciliation and a refund all find the attempt (and whose key took the money) from that reference.
    await db.schema
      .createTable("rail_charges")
      .addColumn("rail_reference", "text", (c) => c.primaryKey())
      .addColumn("rail", "text", (c) => c.notNull())
      .addColumn("attempt_id", "text", (c) => c.notNull().unique())
      .addColumn("transaction_id", "text", (c) => c.notNull())
      .addColumn("merchant_id", "text", (c) => c.notNull())
      .addColumn("mode", "text", (c) => c.notNull())
      .addColumn("channel", "text", (c) => c.notNull())
      .addColumn("key_source", "text", (c) => c.notNull())
      .addColumn("amount_minor", "bigint", (c) => c.notNull())
      .addColumn("currency", "text", (c) => c.notNull())
      // The processor's own id of the charge, once an answer told it.
      .addColumn("rail_id", "text")
      .addColumn("created_at", "bigint", (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex("rail_charges_rail_id")
      .on("rail_charges")
      .columns(["rail", "rail_id"])
      .execute();

    // Processor events already acted on, by a key of the event itself: a delivery seen before (a retry, a
    // replay) changes nothing. Kept at least as long as the webhook's age limit (PAYSTACK_WEBHOOK_MAX_AGE_SECONDS).
    await db.schema
      .createTable("processor_events")
      .addColumn("event_key", "text", (c) => c.primaryKey())
      .addColumn("rail", "text", (c) => c.notNull())
      .addColumn("event", "text", (c) => c.notNull())
      .addColumn("reference", "text")
      .addColumn("outcome", "text", (c) => c.notNull())
      .addColumn("received_at", "bigint", (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex("processor_events_received")
      .on("processor_events")
      .column("received_at")
      .execute();

    // The processor's reference of the charge whose money a refund returns (null on the sandbox).
    await db.schema.alterTable("refunds").addColumn("charge_reference", "text").execute();
    await db.schema
      .createIndex("refunds_charge_reference")
      .on("refunds")
      .column("charge_reference")
      .execute();
    // The rail that issued a virtual account (null: the sandbox). A processor's accounts are found by the
    // charge's reference, never by number: processors hand the same numbers out again after they expire.
    await db.schema.alterTable("virtual_accounts").addColumn("rail", "text").execute();
  },
};
