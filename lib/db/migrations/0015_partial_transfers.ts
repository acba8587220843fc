import { type Kysely, sql } from "kysely";
import type { Migration } from "kysely/migration";

/**
 * Transfers of too little that add up inside the window.
 * Released: never edit it (lib/db/migrations/index.ts).
 */
export const migration: Migration = {
  async up(db: Kysely<unknown>) {
    // Transfers of too little inside the window add up (lib/channels/receive-inbound-transfer.ts): what
    // became of each one answered amount_mismatch. "held" while it counts toward its account, then
    // "credited" (part of the payment) or "refunded" (an automatic refund). Null for every other transfer,
    // and for short transfers recorded before, which were refunded at once.
    await db.schema.alterTable("inbound_transfers").addColumn("partial", "text").execute();
    // The held ones of a transaction, and the sweep's look for those whose window has ended.
    await sql`create index inbound_transfers_held on inbound_transfers (transaction_id) where partial = 'held'`.execute(
      db,
    );
  },
};
