import type { Kysely } from "kysely";
import type { Migration } from "kysely/migration";

/**
 * A merchant's own fee rules (`merchants.fee_schedule`).
 * Released: never edit it (lib/db/migrations/index.ts).
 */
export const migration: Migration = {
  async up(db: Kysely<unknown>) {
    // The merchant's own fee rules per currency (lib/money/fees.ts); null = the default schedule.
    await db.schema.alterTable("merchants").addColumn("fee_schedule", "text").execute();
  },
};
