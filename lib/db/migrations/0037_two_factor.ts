import type { Kysely } from "kysely";
import type { Migration } from "kysely/migration";

/**
 * Two-factor sign-in (lib/merchants/two-factor.ts): a user's TOTP secret, sealed (the pending one while being
 * set up, then the enabled one), the last time step a code was accepted at (a code is accepted once), ten
 * single-use recovery codes (hashed), the sign-in challenges between a right password and its code (hashed
 * token, guesses counted), and a merchant's "require for every member" switch.
 * Released: never edit it (lib/db/migrations/index.ts).
 */
export const migration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable("users").addColumn("totp_pending_sealed", "text").execute();
    await db.schema.alterTable("users").addColumn("totp_secret_sealed", "text").execute();
    await db.schema.alterTable("users").addColumn("totp_enabled_at", "bigint").execute();
    await db.schema.alterTable("users").addColumn("totp_last_step", "bigint").execute();
    await db.schema
      .alterTable("merchants")
      .addColumn("require_two_factor", "integer", (c) => c.notNull().defaultTo(0))
      .execute();
    await db.schema
      .createTable("recovery_codes")
      .addColumn("id", "text", (c) => c.primaryKey())
      .addColumn("user_id", "text", (c) => c.notNull())
      .addColumn("code_hash", "text", (c) => c.notNull().unique())
      .addColumn("created_at", "bigint", (c) => c.notNull())
      .addColumn("used_at", "bigint")
      .execute();
    await db.schema.createIndex("recovery_codes_user").on("recovery_codes").column("user_id").execute();
    await db.schema
      .createTable("login_challenges")
      .addColumn("id", "text", (c) => c.primaryKey())
      .addColumn("token_hash", "text", (c) => c.notNull().unique())
      .addColumn("user_id", "text", (c) => c.notNull())
      .addColumn("merchant_id", "text")
      .addColumn("device_id", "text")
      .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
      .addColumn("created_at", "bigint", (c) => c.notNull())
      .addColumn("expires_at", "bigint", (c) => c.notNull())
      .addColumn("used_at", "bigint")
      .execute();
  },
};
