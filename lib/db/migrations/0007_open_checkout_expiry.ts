import { type Kysely, sql } from "kysely";
import type { Migration } from "kysely/migration";

/**
 * The checkouts still open, by when they expire (a partial index for the expiry sweep).
 * Released: never edit it (lib/db/migrations/index.ts).
 */
export const migration: Migration = {
  async up(db: Kysely<unknown>) {
    // The checkouts still open, by when they expire: the expiry sweep (lib/channels/abandon-expired.ts)
    // reads only these, without scanning every transaction ever made. Partial, so finished transactions
    // cost it nothing; the sweep's query names the statuses the same way, which is what lets SQLite use it.
    await sql`create index if not exists transactions_open_expiry on transactions (access_expires_at) where status in ('pending', 'awaiting_transfer', 'awaiting_bank_authorization', 'awaiting_ussd', 'awaiting_otp')`.execute(
      db,
    );
  },
};
