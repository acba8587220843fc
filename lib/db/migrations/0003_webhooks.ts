import type { Kysely } from "kysely";
import type { Migration } from "kysely/migration";

/**
 * Webhook endpoints, the events outbox and its deliveries.
 * Released: never edit it (lib/db/migrations/index.ts).
 */
export const migration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable("webhook_endpoints")
      .addColumn("id", "text", (c) => c.primaryKey())
      .addColumn("merchant_id", "text", (c) => c.notNull().references("merchants.id"))
      .addColumn("mode", "text", (c) => c.notNull())
      .addColumn("url", "text", (c) => c.notNull())
      .addColumn("events", "text", (c) => c.notNull())
      .addColumn("secret_sealed", "text", (c) => c.notNull())
      .addColumn("previous_secret_sealed", "text")
      .addColumn("previous_secret_expires_at", "bigint")
      .addColumn("status", "text", (c) => c.notNull())
      .addColumn("disabled_reason", "text")
      .addColumn("disabled_at", "bigint")
      .addColumn("created_at", "bigint", (c) => c.notNull())
      .addColumn("updated_at", "bigint", (c) => c.notNull())
      .addUniqueConstraint("webhook_endpoints_merchant_mode", ["merchant_id", "mode"])
      .execute();

    await db.schema
      .createTable("events")
      .addColumn("id", "text", (c) => c.primaryKey())
      .addColumn("merchant_id", "text", (c) => c.notNull())
      .addColumn("mode", "text", (c) => c.notNull())
      .addColumn("type", "text", (c) => c.notNull())
      .addColumn("reference", "text", (c) => c.notNull())
      .addColumn("dedupe_key", "text", (c) => c.notNull().unique())
      .addColumn("payload", "text", (c) => c.notNull())
      .addColumn("created_at", "bigint", (c) => c.notNull())
      .addColumn("delivered_at", "bigint")
      .execute();
    await db.schema
      .createIndex("events_merchant_mode_created")
      .on("events")
      .columns(["merchant_id", "mode", "created_at"])
      .execute();

    await db.schema
      .createTable("webhook_deliveries")
      .addColumn("id", "text", (c) => c.primaryKey())
      .addColumn("event_id", "text", (c) => c.notNull().references("events.id"))
      .addColumn("endpoint_id", "text", (c) => c.notNull().references("webhook_endpoints.id"))
      .addColumn("merchant_id", "text", (c) => c.notNull())
      .addColumn("mode", "text", (c) => c.notNull())
      .addColumn("attempt", "integer", (c) => c.notNull())
      .addColumn("trigger", "text", (c) => c.notNull())
      .addColumn("status", "text", (c) => c.notNull())
      .addColumn("due_at", "bigint", (c) => c.notNull())
      .addColumn("locked_until", "bigint")
      .addColumn("url", "text")
      .addColumn("response_status", "integer")
      .addColumn("response_excerpt", "text")
      .addColumn("latency_ms", "integer")
      .addColumn("error", "text")
      .addColumn("created_at", "bigint", (c) => c.notNull())
      .addColumn("finished_at", "bigint")
      .execute();
    await db.schema
      .createIndex("webhook_deliveries_due")
      .on("webhook_deliveries")
      .columns(["status", "due_at"])
      .execute();
    await db.schema
      .createIndex("webhook_deliveries_event")
      .on("webhook_deliveries")
      .column("event_id")
      .execute();
  },
};
