import { type Kysely, sql } from "kysely";
import type { Migration } from "kysely/migration";

/**
 * Refunds (replacing 0002's refunds_due), the refund balances of a transaction, and card reconciliation's
 * index and sandbox record.
 * Released: never edit it (lib/db/migrations/index.ts).
 */
export const migration: Migration = {
  async up(db: Kysely<unknown>) {
    // Refunds (docs/refunds.md): asked for by merchants, or automatic for money received that must not be
    // credited. Each is settled by a rail: pending → processed | failed.
    await db.schema
      .createTable("refunds")
      .addColumn("id", "text", (c) => c.primaryKey())
      .addColumn("transaction_id", "text")
      .addColumn("merchant_id", "text")
      .addColumn("mode", "text")
      .addColumn("reference", "text")
      .addColumn("type", "text", (c) => c.notNull())
      .addColumn("reason", "text")
      .addColumn("amount_minor", "bigint", (c) => c.notNull())
      .addColumn("currency", "text", (c) => c.notNull())
      .addColumn("status", "text", (c) => c.notNull())
      // Automatic refunds: what the money came from ("bank_transfer" and the inbound transfer, or a charge
      // channel and its attempt); unique, so the same money is never given back twice.
      .addColumn("source", "text")
      .addColumn("source_id", "text", (c) => c.unique())
      .addColumn("rail", "text", (c) => c.notNull())
      .addColumn("rail_reference", "text")
      .addColumn("failure_reason", "text")
      // When a pending refund is next looked at (the sandbox rail settles it then).
      .addColumn("due_at", "bigint", (c) => c.notNull())
      .addColumn("created_at", "bigint", (c) => c.notNull())
      .addColumn("processed_at", "bigint")
      .addColumn("updated_at", "bigint", (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex("refunds_merchant_mode_created")
      .on("refunds")
      .columns(["merchant_id", "mode", "created_at"])
      .execute();
    await db.schema.createIndex("refunds_transaction").on("refunds").column("transaction_id").execute();
    await db.schema.createIndex("refunds_status_due").on("refunds").columns(["status", "due_at"]).execute();

    // Per transaction, kept under its row lock: merchant refunds not failed, and automatic refunds that
    // failed (that money is back with the merchant, refundable again).
    await db.schema
      .alterTable("transactions")
      .addColumn("amount_refunded_minor", "bigint", (c) => c.notNull().defaultTo(0))
      .execute();
    await db.schema
      .alterTable("transactions")
      .addColumn("refund_credit_minor", "bigint", (c) => c.notNull().defaultTo(0))
      .execute();

    // The card attempts still at the network, by when they last moved: card reconciliation reads only these.
    // Partial, its condition inlined in the query the same way (lib/channels/reconcile-cards.ts), which is
    // what lets SQLite use it.
    await sql`create index if not exists charge_attempts_authorizing on charge_attempts (updated_at) where status = 'authorizing'`.execute(
      db,
    );

    // The sandbox card network's own record of what it decided for each attempt, so an attempt whose
    // process died at the network can be asked about again (card reconciliation).
    await db.schema
      .createTable("sandbox_card_charges")
      .addColumn("attempt_id", "text", (c) => c.primaryKey())
      .addColumn("outcome", "text", (c) => c.notNull())
      .addColumn("created_at", "bigint", (c) => c.notNull())
      .execute();

    // Money recorded as due back before refunds existed becomes automatic refunds, pending, due now.
    const now = Date.now();
    await sql`insert into refunds (id, transaction_id, merchant_id, mode, reference, type, reason, amount_minor,
          currency, status, source, source_id, rail, rail_reference, failure_reason, due_at, created_at,
          processed_at, updated_at)
        select 'rfd_' || d.id, d.transaction_id, d.merchant_id, d.mode,
          (select t.reference from transactions t where t.id = d.transaction_id),
          'automatic', d.reason, d.amount_minor, d.currency, 'pending', d.source, d.source_id,
          case
            when d.mode = 'live' then 'live'
            when d.mode = 'test' then 'sandbox'
            when exists (select 1 from inbound_transfers i where i.id = d.source_id and i.rail like 'sandbox%') then 'sandbox'
            else coalesce((select i.rail from inbound_transfers i where i.id = d.source_id), 'live')
          end,
          null, null, ${now}, d.created_at, null, ${now}
        from refunds_due d`.execute(db);
    await db.schema.dropTable("refunds_due").execute();

    // Endpoints subscribed to every event hear the refund events too.
    const before = JSON.stringify([
      "payment.completed",
      "payment.failed",
      "checkout.awaiting_transfer",
      "checkout.completed",
      "checkout.amount_mismatch",
    ]);
    const after = JSON.stringify([...(JSON.parse(before) as string[]), "refund.processed", "refund.failed"]);
    await sql`update webhook_endpoints set events = ${after} where events = ${before}`.execute(db);
  },
};
