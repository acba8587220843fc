import { type Kysely, sql } from "kysely";
import type { Migration } from "kysely/migration";

/**
 * When a payment first started on a checkout of a usage-limited payment link (a card attempt, a transfer
 * account, a bank or USSD request: lib/links/keep-link-place.ts), in unix milliseconds. A checkout whose place
 * is held with this still null is one nobody is paying for, whose place goes to a customer who starts paying
 * while the link is full (lib/links/hand-over-place.ts). A column of the transaction's own row, so the
 * hand-over's compare-and-set sees a payment that started meanwhile on any instance. Checkouts of such links
 * made before it get the time of their first charge attempt, so one whose customer was already paying is
 * never taken for idle.
 */
export const migration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable("transactions").addColumn("link_payment_started_at", "bigint").execute();
    await sql`update transactions set link_payment_started_at = (select min(a.created_at) from charge_attempts a where a.transaction_id = transactions.id) where link_place_until is not null`.execute(
      db,
    );
  },
};
