import { type Kysely, sql } from "kysely";
import type { Migration } from "kysely/migration";

/**
 * Teams (docs/console.md "Team"): users (an email and a password) who belong to merchants through memberships,
 * each with a role; invitations to join a merchant; sessions bound to a membership; and the audit log of every
 * change made with a session or a secret key (docs/api.md "Audit log").
 *
 * Each merchant's one login becomes a user with the merchant's id (its browsers' device cookies stay known:
 * lib/security/known-device.ts binds them to that id) and that user's owner membership, also with the
 * merchant's id; every session the merchant had is bound to it, so nobody is signed out and no key changes.
 * The merchant's email stays its contact address; its password moves to the user (the merchant's copy is
 * emptied). The email of a merchant made before confirmation existed counts as confirmed.
 * Released: never edit it (lib/db/migrations/index.ts).
 */
export const migration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable("users")
      .addColumn("id", "text", (c) => c.primaryKey())
      // Trimmed and lower case (the schemas' email rule), so one person is one user.
      .addColumn("email", "text", (c) => c.notNull().unique())
      .addColumn("password_hash", "text", (c) => c.notNull())
      .addColumn("email_confirmed_at", "bigint")
      .addColumn("created_at", "bigint", (c) => c.notNull())
      .addColumn("updated_at", "bigint", (c) => c.notNull())
      .execute();

    await db.schema
      .createTable("memberships")
      .addColumn("id", "text", (c) => c.primaryKey())
      .addColumn("merchant_id", "text", (c) => c.notNull())
      .addColumn("user_id", "text", (c) => c.notNull())
      // owner | admin | developer | support | viewer (lib/core/roles.ts)
      .addColumn("role", "text", (c) => c.notNull())
      .addColumn("created_at", "bigint", (c) => c.notNull())
      .addColumn("updated_at", "bigint", (c) => c.notNull())
      .addColumn("last_sign_in_at", "bigint")
      .addUniqueConstraint("memberships_merchant_user", ["merchant_id", "user_id"])
      .execute();
    await db.schema.createIndex("memberships_user").on("memberships").column("user_id").execute();

    // An invitation to join a merchant: its token is stored as a keyed hash only, used once (`accepted_at`)
    // or not at all after `expires_at`; `revoked_at` when a newer invitation of the same email replaced it.
    await db.schema
      .createTable("invitations")
      .addColumn("id", "text", (c) => c.primaryKey())
      .addColumn("merchant_id", "text", (c) => c.notNull())
      .addColumn("email", "text", (c) => c.notNull())
      .addColumn("role", "text", (c) => c.notNull())
      .addColumn("token_hash", "text", (c) => c.notNull().unique())
      .addColumn("invited_by", "text", (c) => c.notNull())
      .addColumn("created_at", "bigint", (c) => c.notNull())
      .addColumn("expires_at", "bigint", (c) => c.notNull())
      .addColumn("accepted_at", "bigint")
      .addColumn("revoked_at", "bigint")
      .execute();
    await db.schema
      .createIndex("invitations_merchant")
      .on("invitations")
      .columns(["merchant_id", "email"])
      .execute();

    await db.schema.alterTable("merchant_sessions").addColumn("membership_id", "text").execute();
    await db.schema
      .createIndex("merchant_sessions_membership")
      .on("merchant_sessions")
      .column("membership_id")
      .execute();

    // Append-only: rows are inserted in the transaction of the change they record and never updated.
    await db.schema
      .createTable("audit_log")
      .addColumn("id", "text", (c) => c.primaryKey())
      .addColumn("merchant_id", "text", (c) => c.notNull())
      .addColumn("mode", "text", (c) => c.notNull())
      .addColumn("at", "bigint", (c) => c.notNull())
      .addColumn("action", "text", (c) => c.notNull())
      .addColumn("target", "text")
      // member | secret_key
      .addColumn("actor_type", "text", (c) => c.notNull())
      .addColumn("actor_email", "text")
      .addColumn("actor_key_last4", "text")
      .addColumn("address", "text")
      .execute();
    await db.schema
      .createIndex("audit_log_list")
      .on("audit_log")
      .columns(["merchant_id", "at", "id"])
      .execute();

    await sql`insert into users (id, email, password_hash, email_confirmed_at, created_at, updated_at)
      select id, email, password_hash, created_at, created_at, updated_at from merchants`.execute(db);
    await sql`insert into memberships (id, merchant_id, user_id, role, created_at, updated_at)
      select id, id, id, 'owner', created_at, updated_at from merchants`.execute(db);
    await sql`update merchant_sessions set membership_id = merchant_id`.execute(db);
    await sql`update merchants set password_hash = ''`.execute(db);
  },
};
