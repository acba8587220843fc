import type { Kysely } from "kysely";
import type { Migration } from "kysely/migration";

/**
 * The place a checkout holds on a usage-limited payment link, and who holds it.
 * Released: never edit it (lib/db/migrations/index.ts).
 */
export const migration: Migration = {
  async up(db: Kysely<unknown>) {
    // A checkout started on a usage-limited payment link holds its place only for a short while unless a
    // payment is under way (lib/links/holds-place.ts), and one client address may hold only a few places
    // of a link at once: until when the place is held without a payment under way, and a keyed hash of the
    // address that started the checkout. Both null for every other transaction (and for link checkouts
    // started before: they keep their place as long as their checkout lives).
    await db.schema.alterTable("transactions").addColumn("link_place_until", "bigint").execute();
    await db.schema.alterTable("transactions").addColumn("link_holder", "text").execute();
  },
};
