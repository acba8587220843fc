import { type Kysely, sql } from "kysely";
import type { Migration } from "kysely/migration";

/**
 * Plans and subscriptions (docs/guides/subscriptions.md): a merchant's plans per mode, the subscriptions of its
 * customers to them, and one invoice per subscription and period (unique), which is also the renewal job's work
 * row (lib/jobs/claim.ts: `status`, `due_at`, `locked_until`). Each charge of an invoice is a payment that names
 * its invoice and subscription. Merchants gain their retry schedule (`dunning_days`). Endpoints subscribed to
 * every event hear the subscription events too.
 * Released: never edit it (lib/db/migrations/index.ts).
 */
export const migration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable("plans")
      .addColumn("id", "text", (c) => c.primaryKey())
      .addColumn("merchant_id", "text", (c) => c.notNull())
      .addColumn("mode", "text", (c) => c.notNull())
      .addColumn("name", "text", (c) => c.notNull())
      .addColumn("description", "text")
      .addColumn("amount_minor", "bigint", (c) => c.notNull())
      .addColumn("currency", "text", (c) => c.notNull())
      .addColumn("interval", "text", (c) => c.notNull())
      .addColumn("trial_days", "integer", (c) => c.notNull().defaultTo(0))
      .addColumn("invoice_limit", "integer")
      .addColumn("active", "integer", (c) => c.notNull().defaultTo(1))
      .addColumn("created_at", "bigint", (c) => c.notNull())
      .addColumn("updated_at", "bigint", (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex("plans_list")
      .on("plans")
      .columns(["merchant_id", "mode", "created_at", "id"])
      .execute();

    // A subscription's times (`start_at`, the periods) are on its own clock: real time plus `clock_offset_ms`,
    // which only test mode's clock moves (POST /v1/sandbox/clock/advance).
    await db.schema
      .createTable("subscriptions")
      .addColumn("id", "text", (c) => c.primaryKey())
      .addColumn("merchant_id", "text", (c) => c.notNull())
      .addColumn("mode", "text", (c) => c.notNull())
      .addColumn("customer_id", "text", (c) => c.notNull())
      .addColumn("plan_id", "text", (c) => c.notNull())
      .addColumn("authorization_id", "text")
      .addColumn("status", "text", (c) => c.notNull())
      .addColumn("start_at", "bigint", (c) => c.notNull())
      .addColumn("trial_end_at", "bigint")
      .addColumn("current_period_start", "bigint", (c) => c.notNull())
      .addColumn("current_period_end", "bigint", (c) => c.notNull())
      .addColumn("cancel_at_period_end", "integer", (c) => c.notNull().defaultTo(0))
      .addColumn("invoices_paid", "integer", (c) => c.notNull().defaultTo(0))
      .addColumn("clock_offset_ms", "bigint", (c) => c.notNull().defaultTo(0))
      .addColumn("created_at", "bigint", (c) => c.notNull())
      .addColumn("updated_at", "bigint", (c) => c.notNull())
      .addColumn("cancelled_at", "bigint")
      .addColumn("cancel_reason", "text")
      .execute();
    await db.schema
      .createIndex("subscriptions_list")
      .on("subscriptions")
      .columns(["merchant_id", "mode", "created_at", "id"])
      .execute();
    await db.schema
      .createIndex("subscriptions_customer")
      .on("subscriptions")
      .columns(["customer_id", "created_at"])
      .execute();

    // One invoice per subscription and period: two processes (or a retry after a crash) that make the same
    // period's invoice make one. `status`: pending (due at `due_at`, real time) → charging (claimed until
    // `locked_until`) → waiting (a payment the network or the customer has still to decide) → paid | void.
    await db.schema
      .createTable("invoices")
      .addColumn("id", "text", (c) => c.primaryKey())
      .addColumn("subscription_id", "text", (c) => c.notNull())
      .addColumn("merchant_id", "text", (c) => c.notNull())
      .addColumn("mode", "text", (c) => c.notNull())
      .addColumn("period_index", "integer", (c) => c.notNull())
      .addColumn("period_start", "bigint", (c) => c.notNull())
      .addColumn("period_end", "bigint", (c) => c.notNull())
      .addColumn("amount_minor", "bigint", (c) => c.notNull())
      .addColumn("currency", "text", (c) => c.notNull())
      .addColumn("status", "text", (c) => c.notNull())
      .addColumn("due_at", "bigint", (c) => c.notNull())
      .addColumn("locked_until", "bigint")
      .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
      .addColumn("reference", "text")
      .addColumn("created_at", "bigint", (c) => c.notNull())
      .addColumn("updated_at", "bigint", (c) => c.notNull())
      .addColumn("paid_at", "bigint")
      .addUniqueConstraint("invoices_subscription_period", ["subscription_id", "period_index"])
      .execute();
    await db.schema.createIndex("invoices_due").on("invoices").columns(["status", "due_at"]).execute();

    // Emails to a subscription's customer (a failed charge, a charge that needs them, a cancellation): an outbox
    // like the receipts', one row per cause (`dedupe_key`, unique).
    await db.schema
      .createTable("subscription_emails")
      .addColumn("id", "text", (c) => c.primaryKey())
      .addColumn("subscription_id", "text", (c) => c.notNull())
      .addColumn("invoice_id", "text")
      .addColumn("kind", "text", (c) => c.notNull())
      .addColumn("dedupe_key", "text", (c) => c.notNull().unique())
      .addColumn("recipient", "text", (c) => c.notNull())
      .addColumn("status", "text", (c) => c.notNull())
      .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
      .addColumn("due_at", "bigint", (c) => c.notNull())
      .addColumn("locked_until", "bigint")
      .addColumn("error", "text")
      .addColumn("created_at", "bigint", (c) => c.notNull())
      .addColumn("sent_at", "bigint")
      .execute();
    await db.schema
      .createIndex("subscription_emails_due")
      .on("subscription_emails")
      .columns(["status", "due_at"])
      .execute();

    await db.schema.alterTable("transactions").addColumn("invoice_id", "text").execute();
    await db.schema.alterTable("transactions").addColumn("subscription_id", "text").execute();
    await db.schema
      .createIndex("transactions_invoice")
      .on("transactions")
      .columns(["invoice_id", "created_at"])
      .execute();

    // The days after a failed renewal on which it is tried again (JSON array); null: 1, 3 and 5.
    await db.schema.alterTable("merchants").addColumn("dunning_days", "text").execute();

    const before = JSON.stringify([
      "payment.completed",
      "payment.failed",
      "checkout.awaiting_transfer",
      "checkout.completed",
      "checkout.amount_mismatch",
      "refund.processed",
      "refund.failed",
    ]);
    const after = JSON.stringify([
      ...(JSON.parse(before) as string[]),
      "subscription.created",
      "subscription.renewed",
      "subscription.past_due",
      "subscription.cancelled",
      "subscription.completed",
      "invoice.payment_failed",
    ]);
    await sql`update webhook_endpoints set events = ${after} where events = ${before}`.execute(db);
  },
};
