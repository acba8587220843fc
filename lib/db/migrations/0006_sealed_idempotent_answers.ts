import { type Kysely, sql } from "kysely";
import type { Migration } from "kysely/migration";

/** app_meta key: when stored idempotent answers began to be sealed (unix ms), set by this migration. */
export const SEALED_SINCE_KEY = "idempotency_sealed_since";

/**
 * The moment stored idempotent answers began to be sealed.
 * Released: never edit it (lib/db/migrations/index.ts).
 */
export const migration: Migration = {
  async up(db: Kysely<unknown>) {
    // From now on every stored idempotent answer is sealed (lib/http/idempotency.ts); rows created before
    // this moment may hold plain JSON, and only those are read as such.
    await sql`insert into app_meta (key, value) values (${SEALED_SINCE_KEY}, ${String(Date.now())})`.execute(
      db,
    );
  },
};
