import type { Kysely } from "kysely";
import type { Migration } from "kysely/migration";

/**
 * The single-use links emailed to a user (lib/merchants/password-reset.ts, lib/merchants/email-confirmation.ts):
 * a password reset (30 minutes) or an email confirmation, each token stored as its keyed hash only and used
 * once (`used_at`, set by a conditional update).
 * Released: never edit it (lib/db/migrations/index.ts).
 */
export const migration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable("user_tokens")
      .addColumn("id", "text", (c) => c.primaryKey())
      .addColumn("user_id", "text", (c) => c.notNull())
      // password_reset | email_confirmation
      .addColumn("kind", "text", (c) => c.notNull())
      .addColumn("token_hash", "text", (c) => c.notNull().unique())
      .addColumn("created_at", "bigint", (c) => c.notNull())
      .addColumn("expires_at", "bigint", (c) => c.notNull())
      .addColumn("used_at", "bigint")
      .execute();
    await db.schema.createIndex("user_tokens_user").on("user_tokens").columns(["user_id", "kind"]).execute();
  },
};
