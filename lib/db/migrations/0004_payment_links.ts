import type { Kysely } from "kysely";
import type { Migration } from "kysely/migration";

/**
 * Payment links, and the link a transaction was started from.
 * Released: never edit it (lib/db/migrations/index.ts).
 */
export const migration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable("payment_links")
      .addColumn("id", "text", (c) => c.primaryKey())
      .addColumn("merchant_id", "text", (c) => c.notNull().references("merchants.id"))
      .addColumn("mode", "text", (c) => c.notNull())
      .addColumn("slug", "text", (c) => c.notNull().unique())
      .addColumn("title", "text", (c) => c.notNull())
      .addColumn("description", "text")
      .addColumn("amount_minor", "bigint")
      .addColumn("min_amount_minor", "bigint")
      .addColumn("max_amount_minor", "bigint")
      .addColumn("currency", "text", (c) => c.notNull())
      .addColumn("channels", "text", (c) => c.notNull())
      .addColumn("redirect_url", "text")
      .addColumn("fee_bearer", "text", (c) => c.notNull())
      .addColumn("fields", "text", (c) => c.notNull())
      .addColumn("active", "integer", (c) => c.notNull())
      .addColumn("expires_at", "bigint")
      .addColumn("usage_limit", "integer")
      .addColumn("created_at", "bigint", (c) => c.notNull())
      .addColumn("updated_at", "bigint", (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex("payment_links_merchant_mode_created")
      .on("payment_links")
      .columns(["merchant_id", "mode", "created_at"])
      .execute();
    await db.schema.alterTable("transactions").addColumn("payment_link_id", "text").execute();
    await db.schema
      .createIndex("transactions_payment_link")
      .on("transactions")
      .column("payment_link_id")
      .execute();
  },
};
