import type { Kysely } from "kysely";
import type { Migration } from "kysely/migration";

/**
 * Merchants, their API keys and console sessions, transactions, stored idempotent answers, and app_meta.
 * Released: never edit it (lib/db/migrations/index.ts).
 */
export const migration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable("app_meta")
      .addColumn("key", "text", (c) => c.primaryKey())
      .addColumn("value", "text", (c) => c.notNull())
      .execute();

    await db.schema
      .createTable("merchants")
      .addColumn("id", "text", (c) => c.primaryKey())
      .addColumn("business_name", "text", (c) => c.notNull())
      .addColumn("email", "text", (c) => c.notNull().unique())
      .addColumn("password_hash", "text", (c) => c.notNull())
      .addColumn("channels", "text", (c) => c.notNull())
      .addColumn("merchant_bears_cost", "integer", (c) => c.notNull().defaultTo(0))
      .addColumn("brand_color", "text")
      .addColumn("logo_url", "text")
      .addColumn("created_at", "bigint", (c) => c.notNull())
      .addColumn("updated_at", "bigint", (c) => c.notNull())
      .execute();

    await db.schema
      .createTable("api_keys")
      .addColumn("id", "text", (c) => c.primaryKey())
      .addColumn("merchant_id", "text", (c) => c.notNull().references("merchants.id"))
      .addColumn("mode", "text", (c) => c.notNull())
      .addColumn("key_hash", "text", (c) => c.notNull().unique())
      .addColumn("key_last4", "text", (c) => c.notNull())
      .addColumn("created_at", "bigint", (c) => c.notNull())
      .addColumn("revoked_at", "bigint")
      .execute();
    await db.schema
      .createIndex("api_keys_merchant_mode")
      .on("api_keys")
      .columns(["merchant_id", "mode"])
      .execute();

    await db.schema
      .createTable("merchant_sessions")
      .addColumn("id", "text", (c) => c.primaryKey())
      .addColumn("merchant_id", "text", (c) => c.notNull().references("merchants.id"))
      .addColumn("token_hash", "text", (c) => c.notNull().unique())
      .addColumn("created_at", "bigint", (c) => c.notNull())
      .addColumn("expires_at", "bigint", (c) => c.notNull())
      .addColumn("revoked_at", "bigint")
      .execute();

    await db.schema
      .createTable("transactions")
      .addColumn("id", "text", (c) => c.primaryKey())
      .addColumn("reference", "text", (c) => c.notNull().unique())
      .addColumn("merchant_id", "text", (c) => c.notNull().references("merchants.id"))
      .addColumn("mode", "text", (c) => c.notNull())
      .addColumn("access_code", "text", (c) => c.notNull().unique())
      .addColumn("access_expires_at", "bigint", (c) => c.notNull())
      .addColumn("amount_minor", "bigint", (c) => c.notNull())
      .addColumn("currency", "text", (c) => c.notNull())
      .addColumn("email", "text")
      .addColumn("customer_name", "text")
      .addColumn("callback_url", "text")
      .addColumn("description", "text")
      .addColumn("metadata", "text")
      .addColumn("distribution", "text")
      .addColumn("merchant_bears_cost", "integer", (c) => c.notNull())
      .addColumn("channels", "text", (c) => c.notNull())
      .addColumn("card_fee_minor", "bigint", (c) => c.notNull())
      .addColumn("transfer_fee_minor", "bigint", (c) => c.notNull())
      .addColumn("status", "text", (c) => c.notNull())
      .addColumn("channel", "text")
      .addColumn("fees_minor", "bigint")
      .addColumn("total_minor", "bigint")
      .addColumn("amount_settled_minor", "bigint")
      .addColumn("paid_at", "bigint")
      .addColumn("created_at", "bigint", (c) => c.notNull())
      .addColumn("updated_at", "bigint", (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex("transactions_merchant_mode_created")
      .on("transactions")
      .columns(["merchant_id", "mode", "created_at"])
      .execute();

    await db.schema
      .createTable("idempotency_keys")
      .addColumn("merchant_id", "text", (c) => c.notNull())
      .addColumn("mode", "text", (c) => c.notNull())
      .addColumn("method", "text", (c) => c.notNull())
      .addColumn("path", "text", (c) => c.notNull())
      .addColumn("idempotency_key", "text", (c) => c.notNull())
      .addColumn("request_hash", "text", (c) => c.notNull())
      .addColumn("state", "text", (c) => c.notNull())
      .addColumn("response_status", "integer")
      .addColumn("response_body", "text")
      .addColumn("created_at", "bigint", (c) => c.notNull())
      .addColumn("expires_at", "bigint", (c) => c.notNull())
      .addPrimaryKeyConstraint("idempotency_keys_pk", [
        "merchant_id",
        "mode",
        "method",
        "path",
        "idempotency_key",
      ])
      .execute();
    await db.schema
      .createIndex("idempotency_keys_expires")
      .on("idempotency_keys")
      .column("expires_at")
      .execute();
  },
};
