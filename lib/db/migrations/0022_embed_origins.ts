import type { Kysely } from "kysely";
import type { Migration } from "kysely/migration";

/**
 * The web origins allowed to frame a merchant's checkout (lib/merchants/embed-origins.ts): a JSON array of
 * origins ("https://shop.example"); null, as on every merchant before, frames it nowhere.
 * Released: never edit it (lib/db/migrations/index.ts).
 */
export const migration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable("merchants").addColumn("embed_origins", "text").execute();
  },
};
