import type { Kysely } from "kysely";
import type { Migration } from "kysely/migration";

/**
 * A subscription started on the hosted checkout (initialize with `plan`): the payment names the plan, and its
 * first success starts the subscription (lib/billing/start-from-checkout.ts).
 * Released: never edit it (lib/db/migrations/index.ts).
 */
export const migration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable("transactions").addColumn("plan_id", "text").execute();
  },
};
