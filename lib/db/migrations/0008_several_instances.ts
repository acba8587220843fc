import { type Kysely, PostgresAdapter, sql } from "kysely";
import type { Migration } from "kysely/migration";

/**
 * What several processes or instances share through the database: one active key per merchant and mode,
 * unique delivery attempt numbers, the sandbox's OTPs, and PostgreSQL's rate-limit budgets.
 * Released: never edit it (lib/db/migrations/index.ts).
 */
export const migration: Migration = {
  async up(db: Kysely<unknown>) {
    // One active secret key per merchant and mode, enforced by the database. Keys that concurrent rolls
    // left active beside a newer one are revoked first (the newest of each merchant and mode stays).
    const now = Date.now();
    await sql`update api_keys set revoked_at = ${now}
        where revoked_at is null and exists (
          select 1 from api_keys newer
          where newer.merchant_id = api_keys.merchant_id and newer.mode = api_keys.mode
            and newer.revoked_at is null
            and (newer.created_at > api_keys.created_at or (newer.created_at = api_keys.created_at and newer.id > api_keys.id))
        )`.execute(db);
    await sql`create unique index api_keys_one_active on api_keys (merchant_id, mode) where revoked_at is null`.execute(
      db,
    );

    // Attempt numbers unique per event. Concurrent redeliveries could repeat a number: those events'
    // attempts are numbered again in the order they were made.
    await sql`update webhook_deliveries set attempt = (
          select count(*) from webhook_deliveries earlier
          where earlier.event_id = webhook_deliveries.event_id
            and (earlier.created_at < webhook_deliveries.created_at
              or (earlier.created_at = webhook_deliveries.created_at and earlier.id <= webhook_deliveries.id))
        )
        where event_id in (
          select event_id from webhook_deliveries group by event_id, attempt having count(*) > 1
        )`.execute(db);
    await db.schema
      .createIndex("webhook_deliveries_event_attempt")
      .unique()
      .on("webhook_deliveries")
      .columns(["event_id", "attempt"])
      .execute();

    // The sandbox card network's authorisations waiting for an OTP: in the database, so the OTP may reach
    // any process or instance, not only the one that started the payment.
    await db.schema
      .createTable("sandbox_card_otps")
      .addColumn("authorization", "text", (c) => c.primaryKey())
      .addColumn("expires_at", "bigint", (c) => c.notNull())
      .execute();

    // Rate-limit budgets shared by every instance (lib/security/rate-limit-store.ts), in the columns
    // rate-limiter-flexible reads. Only PostgreSQL keeps them in the database itself; SQLite keeps them in
    // a file of their own beside it, and Redis when it is configured.
    if (db.getExecutor().adapter instanceof PostgresAdapter) {
      await sql`create table rate_limits (key varchar(255) primary key, points integer not null default 0, expire bigint)`.execute(
        db,
      );
    }
  },
};
