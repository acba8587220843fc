import type { Kysely } from "kysely";
import type { Migration } from "kysely/migration";

/**
 * The checkout's language, kept for the payment.
 * Released: never edit it (lib/db/migrations/index.ts).
 */
export const migration: Migration = {
  async up(db: Kysely<unknown>) {
    // The checkout's language, kept for the payment (docs/checkout.md "Languages").
    await db.schema.alterTable("transactions").addColumn("locale", "text").execute();
  },
};
