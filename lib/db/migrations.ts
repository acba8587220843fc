import { type Kysely, PostgresAdapter, sql } from "kysely";
import type { Migration } from "kysely/migration";

/** app_meta key: when stored idempotent answers began to be sealed (unix ms), set by migration 0006. */
export const SEALED_SINCE_KEY = "idempotency_sealed_since";

/**
 * Migrations, in order. Each uses only column types both SQLite and PostgreSQL understand
 * (text, integer, bigint), so one list serves both databases. Never edit a shipped migration: add one.
 */
export const migrations: Record<string, Migration> = {
  "0001_foundation": {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable("app_meta")
        .addColumn("key", "text", (c) => c.primaryKey())
        .addColumn("value", "text", (c) => c.notNull())
        .execute();

      await db.schema
        .createTable("merchants")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("business_name", "text", (c) => c.notNull())
        .addColumn("email", "text", (c) => c.notNull().unique())
        .addColumn("password_hash", "text", (c) => c.notNull())
        .addColumn("channels", "text", (c) => c.notNull())
        .addColumn("merchant_bears_cost", "integer", (c) => c.notNull().defaultTo(0))
        .addColumn("brand_color", "text")
        .addColumn("logo_url", "text")
        .addColumn("created_at", "bigint", (c) => c.notNull())
        .addColumn("updated_at", "bigint", (c) => c.notNull())
        .execute();

      await db.schema
        .createTable("api_keys")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("merchant_id", "text", (c) => c.notNull().references("merchants.id"))
        .addColumn("mode", "text", (c) => c.notNull())
        .addColumn("key_hash", "text", (c) => c.notNull().unique())
        .addColumn("key_last4", "text", (c) => c.notNull())
        .addColumn("created_at", "bigint", (c) => c.notNull())
        .addColumn("revoked_at", "bigint")
        .execute();
      await db.schema
        .createIndex("api_keys_merchant_mode")
        .on("api_keys")
        .columns(["merchant_id", "mode"])
        .execute();

      await db.schema
        .createTable("merchant_sessions")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("merchant_id", "text", (c) => c.notNull().references("merchants.id"))
        .addColumn("token_hash", "text", (c) => c.notNull().unique())
        .addColumn("created_at", "bigint", (c) => c.notNull())
        .addColumn("expires_at", "bigint", (c) => c.notNull())
        .addColumn("revoked_at", "bigint")
        .execute();

      await db.schema
        .createTable("transactions")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("reference", "text", (c) => c.notNull().unique())
        .addColumn("merchant_id", "text", (c) => c.notNull().references("merchants.id"))
        .addColumn("mode", "text", (c) => c.notNull())
        .addColumn("access_code", "text", (c) => c.notNull().unique())
        .addColumn("access_expires_at", "bigint", (c) => c.notNull())
        .addColumn("amount_minor", "bigint", (c) => c.notNull())
        .addColumn("currency", "text", (c) => c.notNull())
        .addColumn("email", "text")
        .addColumn("customer_name", "text")
        .addColumn("callback_url", "text")
        .addColumn("description", "text")
        .addColumn("metadata", "text")
        .addColumn("distribution", "text")
        .addColumn("merchant_bears_cost", "integer", (c) => c.notNull())
        .addColumn("channels", "text", (c) => c.notNull())
        .addColumn("card_fee_minor", "bigint", (c) => c.notNull())
        .addColumn("transfer_fee_minor", "bigint", (c) => c.notNull())
        .addColumn("status", "text", (c) => c.notNull())
        .addColumn("channel", "text")
        .addColumn("fees_minor", "bigint")
        .addColumn("total_minor", "bigint")
        .addColumn("amount_settled_minor", "bigint")
        .addColumn("paid_at", "bigint")
        .addColumn("created_at", "bigint", (c) => c.notNull())
        .addColumn("updated_at", "bigint", (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex("transactions_merchant_mode_created")
        .on("transactions")
        .columns(["merchant_id", "mode", "created_at"])
        .execute();

      await db.schema
        .createTable("idempotency_keys")
        .addColumn("merchant_id", "text", (c) => c.notNull())
        .addColumn("mode", "text", (c) => c.notNull())
        .addColumn("method", "text", (c) => c.notNull())
        .addColumn("path", "text", (c) => c.notNull())
        .addColumn("idempotency_key", "text", (c) => c.notNull())
        .addColumn("request_hash", "text", (c) => c.notNull())
        .addColumn("state", "text", (c) => c.notNull())
        .addColumn("response_status", "integer")
        .addColumn("response_body", "text")
        .addColumn("created_at", "bigint", (c) => c.notNull())
        .addColumn("expires_at", "bigint", (c) => c.notNull())
        .addPrimaryKeyConstraint("idempotency_keys_pk", [
          "merchant_id",
          "mode",
          "method",
          "path",
          "idempotency_key",
        ])
        .execute();
      await db.schema
        .createIndex("idempotency_keys_expires")
        .on("idempotency_keys")
        .column("expires_at")
        .execute();
    },
  },
  "0002_channels": {
    async up(db: Kysely<unknown>) {
      // While a wrong-amount transfer is the latest news on the open virtual account, checkout shows it.
      await db.schema.alterTable("transactions").addColumn("mismatch_expected_minor", "bigint").execute();
      await db.schema.alterTable("transactions").addColumn("mismatch_received_minor", "bigint").execute();

      await db.schema
        .createTable("charge_attempts")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("transaction_id", "text", (c) => c.notNull().references("transactions.id"))
        .addColumn("merchant_id", "text", (c) => c.notNull())
        .addColumn("mode", "text", (c) => c.notNull())
        .addColumn("channel", "text", (c) => c.notNull())
        .addColumn("status", "text", (c) => c.notNull())
        .addColumn("details", "text", (c) => c.notNull())
        .addColumn("failure_reason", "text")
        .addColumn("captured_minor", "bigint")
        .addColumn("created_at", "bigint", (c) => c.notNull())
        .addColumn("updated_at", "bigint", (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex("charge_attempts_transaction")
        .on("charge_attempts")
        .column("transaction_id")
        .execute();

      await db.schema
        .createTable("virtual_accounts")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("transaction_id", "text", (c) => c.notNull().references("transactions.id"))
        .addColumn("attempt_id", "text", (c) => c.notNull().references("charge_attempts.id"))
        .addColumn("merchant_id", "text", (c) => c.notNull())
        .addColumn("mode", "text", (c) => c.notNull())
        .addColumn("account_number", "text", (c) => c.notNull().unique())
        .addColumn("bank_name", "text", (c) => c.notNull())
        .addColumn("account_name", "text", (c) => c.notNull())
        .addColumn("expected_minor", "bigint", (c) => c.notNull())
        .addColumn("currency", "text", (c) => c.notNull())
        .addColumn("expires_at", "bigint", (c) => c.notNull())
        .addColumn("created_at", "bigint", (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex("virtual_accounts_transaction")
        .on("virtual_accounts")
        .column("transaction_id")
        .execute();

      await db.schema
        .createTable("inbound_transfers")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("rail", "text", (c) => c.notNull())
        .addColumn("session_id", "text", (c) => c.notNull())
        .addColumn("account_number", "text", (c) => c.notNull())
        .addColumn("amount_minor", "bigint", (c) => c.notNull())
        .addColumn("merchant_id", "text")
        .addColumn("mode", "text")
        .addColumn("transaction_id", "text")
        .addColumn("outcome", "text", (c) => c.notNull())
        .addColumn("received_at", "bigint", (c) => c.notNull())
        .addUniqueConstraint("inbound_transfers_rail_session", ["rail", "session_id"])
        .execute();
      await db.schema
        .createIndex("inbound_transfers_transaction")
        .on("inbound_transfers")
        .column("transaction_id")
        .execute();

      await db.schema
        .createTable("refunds_due")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("transaction_id", "text")
        .addColumn("merchant_id", "text")
        .addColumn("mode", "text")
        .addColumn("source", "text", (c) => c.notNull())
        .addColumn("source_id", "text", (c) => c.notNull().unique())
        .addColumn("amount_minor", "bigint", (c) => c.notNull())
        .addColumn("currency", "text", (c) => c.notNull())
        .addColumn("reason", "text", (c) => c.notNull())
        .addColumn("status", "text", (c) => c.notNull())
        .addColumn("created_at", "bigint", (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex("refunds_due_transaction")
        .on("refunds_due")
        .column("transaction_id")
        .execute();
    },
  },
  "0003_webhooks": {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable("webhook_endpoints")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("merchant_id", "text", (c) => c.notNull().references("merchants.id"))
        .addColumn("mode", "text", (c) => c.notNull())
        .addColumn("url", "text", (c) => c.notNull())
        .addColumn("events", "text", (c) => c.notNull())
        .addColumn("secret_sealed", "text", (c) => c.notNull())
        .addColumn("previous_secret_sealed", "text")
        .addColumn("previous_secret_expires_at", "bigint")
        .addColumn("status", "text", (c) => c.notNull())
        .addColumn("disabled_reason", "text")
        .addColumn("disabled_at", "bigint")
        .addColumn("created_at", "bigint", (c) => c.notNull())
        .addColumn("updated_at", "bigint", (c) => c.notNull())
        .addUniqueConstraint("webhook_endpoints_merchant_mode", ["merchant_id", "mode"])
        .execute();

      await db.schema
        .createTable("events")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("merchant_id", "text", (c) => c.notNull())
        .addColumn("mode", "text", (c) => c.notNull())
        .addColumn("type", "text", (c) => c.notNull())
        .addColumn("reference", "text", (c) => c.notNull())
        .addColumn("dedupe_key", "text", (c) => c.notNull().unique())
        .addColumn("payload", "text", (c) => c.notNull())
        .addColumn("created_at", "bigint", (c) => c.notNull())
        .addColumn("delivered_at", "bigint")
        .execute();
      await db.schema
        .createIndex("events_merchant_mode_created")
        .on("events")
        .columns(["merchant_id", "mode", "created_at"])
        .execute();

      await db.schema
        .createTable("webhook_deliveries")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("event_id", "text", (c) => c.notNull().references("events.id"))
        .addColumn("endpoint_id", "text", (c) => c.notNull().references("webhook_endpoints.id"))
        .addColumn("merchant_id", "text", (c) => c.notNull())
        .addColumn("mode", "text", (c) => c.notNull())
        .addColumn("attempt", "integer", (c) => c.notNull())
        .addColumn("trigger", "text", (c) => c.notNull())
        .addColumn("status", "text", (c) => c.notNull())
        .addColumn("due_at", "bigint", (c) => c.notNull())
        .addColumn("locked_until", "bigint")
        .addColumn("url", "text")
        .addColumn("response_status", "integer")
        .addColumn("response_excerpt", "text")
        .addColumn("latency_ms", "integer")
        .addColumn("error", "text")
        .addColumn("created_at", "bigint", (c) => c.notNull())
        .addColumn("finished_at", "bigint")
        .execute();
      await db.schema
        .createIndex("webhook_deliveries_due")
        .on("webhook_deliveries")
        .columns(["status", "due_at"])
        .execute();
      await db.schema
        .createIndex("webhook_deliveries_event")
        .on("webhook_deliveries")
        .column("event_id")
        .execute();
    },
  },
  "0004_payment_links": {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable("payment_links")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("merchant_id", "text", (c) => c.notNull().references("merchants.id"))
        .addColumn("mode", "text", (c) => c.notNull())
        .addColumn("slug", "text", (c) => c.notNull().unique())
        .addColumn("title", "text", (c) => c.notNull())
        .addColumn("description", "text")
        .addColumn("amount_minor", "bigint")
        .addColumn("min_amount_minor", "bigint")
        .addColumn("max_amount_minor", "bigint")
        .addColumn("currency", "text", (c) => c.notNull())
        .addColumn("channels", "text", (c) => c.notNull())
        .addColumn("redirect_url", "text")
        .addColumn("fee_bearer", "text", (c) => c.notNull())
        .addColumn("fields", "text", (c) => c.notNull())
        .addColumn("active", "integer", (c) => c.notNull())
        .addColumn("expires_at", "bigint")
        .addColumn("usage_limit", "integer")
        .addColumn("created_at", "bigint", (c) => c.notNull())
        .addColumn("updated_at", "bigint", (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex("payment_links_merchant_mode_created")
        .on("payment_links")
        .columns(["merchant_id", "mode", "created_at"])
        .execute();
      await db.schema.alterTable("transactions").addColumn("payment_link_id", "text").execute();
      await db.schema
        .createIndex("transactions_payment_link")
        .on("transactions")
        .column("payment_link_id")
        .execute();
    },
  },
  "0005_merchant_fees": {
    async up(db: Kysely<unknown>) {
      // The merchant's own fee rules per currency (lib/money/fee-settings.ts); null = the default schedule.
      await db.schema.alterTable("merchants").addColumn("fee_schedule", "text").execute();
    },
  },
  "0006_sealed_idempotent_answers": {
    async up(db: Kysely<unknown>) {
      // From now on every stored idempotent answer is sealed (lib/http/idempotency.ts); rows created before
      // this moment may hold plain JSON, and only those are read as such.
      await sql`insert into app_meta (key, value) values (${SEALED_SINCE_KEY}, ${String(Date.now())})`.execute(
        db,
      );
    },
  },
  "0007_open_checkout_expiry": {
    async up(db: Kysely<unknown>) {
      // The checkouts still open, by when they expire: the expiry sweep (lib/channels/abandon-expired.ts)
      // reads only these, without scanning every transaction ever made. Partial, so finished transactions
      // cost it nothing; the sweep's query names the statuses the same way, which is what lets SQLite use it.
      await sql`create index if not exists transactions_open_expiry on transactions (access_expires_at) where status in ('pending', 'awaiting_transfer', 'awaiting_bank_authorization', 'awaiting_ussd', 'awaiting_otp')`.execute(
        db,
      );
    },
  },
  "0008_several_instances": {
    async up(db: Kysely<unknown>) {
      // One active secret key per merchant and mode, enforced by the database. Keys that concurrent rolls
      // left active beside a newer one are revoked first (the newest of each merchant and mode stays).
      const now = Date.now();
      await sql`update api_keys set revoked_at = ${now}
        where revoked_at is null and exists (
          select 1 from api_keys newer
          where newer.merchant_id = api_keys.merchant_id and newer.mode = api_keys.mode
            and newer.revoked_at is null
            and (newer.created_at > api_keys.created_at or (newer.created_at = api_keys.created_at and newer.id > api_keys.id))
        )`.execute(db);
      await sql`create unique index api_keys_one_active on api_keys (merchant_id, mode) where revoked_at is null`.execute(
        db,
      );

      // Attempt numbers unique per event. Concurrent redeliveries could repeat a number: those events'
      // attempts are numbered again in the order they were made.
      await sql`update webhook_deliveries set attempt = (
          select count(*) from webhook_deliveries earlier
          where earlier.event_id = webhook_deliveries.event_id
            and (earlier.created_at < webhook_deliveries.created_at
              or (earlier.created_at = webhook_deliveries.created_at and earlier.id <= webhook_deliveries.id))
        )
        where event_id in (
          select event_id from webhook_deliveries group by event_id, attempt having count(*) > 1
        )`.execute(db);
      await db.schema
        .createIndex("webhook_deliveries_event_attempt")
        .unique()
        .on("webhook_deliveries")
        .columns(["event_id", "attempt"])
        .execute();

      // The sandbox card network's authorisations waiting for an OTP: in the database, so the OTP may reach
      // any process or instance, not only the one that started the payment.
      await db.schema
        .createTable("sandbox_card_otps")
        .addColumn("authorization", "text", (c) => c.primaryKey())
        .addColumn("expires_at", "bigint", (c) => c.notNull())
        .execute();

      // Rate-limit budgets shared by every instance (lib/security/rate-limit-store.ts), in the columns
      // rate-limiter-flexible reads. Only PostgreSQL keeps them in the database itself; SQLite keeps them in
      // a file of their own beside it, and Redis when it is configured.
      if (db.getExecutor().adapter instanceof PostgresAdapter) {
        await sql`create table rate_limits (key varchar(255) primary key, points integer not null default 0, expire bigint)`.execute(
          db,
        );
      }
    },
  },
  "0009_receipts": {
    async up(db: Kysely<unknown>) {
      // Receipts to send after a payment succeeds (lib/receipts): written in the same database transaction as
      // the success, sent in the background by whichever process claims them. One per payment and kind.
      await db.schema
        .createTable("receipts")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("transaction_id", "text", (c) => c.notNull())
        .addColumn("attempt_id", "text")
        .addColumn("kind", "text", (c) => c.notNull())
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
        .createIndex("receipts_transaction_kind")
        .unique()
        .on("receipts")
        .columns(["transaction_id", "kind"])
        .execute();
      await db.schema.createIndex("receipts_due").on("receipts").columns(["status", "due_at"]).execute();
    },
  },
  "0011_refunds": {
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
      const after = JSON.stringify([
        ...(JSON.parse(before) as string[]),
        "refund.processed",
        "refund.failed",
      ]);
      await sql`update webhook_endpoints set events = ${after} where events = ${before}`.execute(db);
    },
  },
  "0012_checkout_locale": {
    async up(db: Kysely<unknown>) {
      // The checkout's language, kept for the payment (docs/checkout.md "Languages").
      await db.schema.alterTable("transactions").addColumn("locale", "text").execute();
    },
  },
  "0013_initialize_idempotency": {
    async up(db: Kysely<unknown>) {
      // An initialize asked for with an Idempotency-Key keeps the key (a keyed hash) on the transaction it
      // made, in the same database transaction: a retry whose first run committed but never stored its
      // answer (its process died in between) finds that transaction instead of making a second one.
      await db.schema.alterTable("transactions").addColumn("idempotency_ref", "text").execute();
      await db.schema.alterTable("transactions").addColumn("idempotency_request_hash", "text").execute();
      // Unique where set (both databases let any number of rows hold null).
      await db.schema
        .createIndex("transactions_idempotency_ref")
        .unique()
        .on("transactions")
        .column("idempotency_ref")
        .execute();
    },
  },
  "0014_link_places": {
    async up(db: Kysely<unknown>) {
      // A checkout started on a usage-limited payment link holds its place only for a short while unless a
      // payment is under way (lib/links/holds-place.ts), and one client address may hold only a few places
      // of a link at once: until when the place is held without a payment under way, and a keyed hash of the
      // address that started the checkout. Both null for every other transaction (and for link checkouts
      // started before: they keep their place as long as their checkout lives).
      await db.schema.alterTable("transactions").addColumn("link_place_until", "bigint").execute();
      await db.schema.alterTable("transactions").addColumn("link_holder", "text").execute();
    },
  },
  "0015_partial_transfers": {
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
  },
  "0020_paystack": {
    async up(db: Kysely<unknown>) {
      // A merchant's own processor account per mode (lib/rails/paystack/connection.ts): its secret key,
      // sealed (lib/security/seal.ts), and its last four characters to show. One per merchant, mode, processor.
      await db.schema
        .createTable("processor_connections")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("merchant_id", "text", (c) => c.notNull())
        .addColumn("mode", "text", (c) => c.notNull())
        .addColumn("processor", "text", (c) => c.notNull())
        .addColumn("secret_sealed", "text", (c) => c.notNull())
        .addColumn("key_last4", "text", (c) => c.notNull())
        .addColumn("created_at", "bigint", (c) => c.notNull())
        .addColumn("updated_at", "bigint", (c) => c.notNull())
        .addUniqueConstraint("processor_connections_merchant_mode", ["merchant_id", "mode", "processor"])
        .execute();

      // Every attempt that reached a processor, under the reference the processor knows it by, written in
      // the attempt's own database transaction before the processor is called: its webhook, a lost answer's
      // reconciliation and a refund all find the attempt (and whose key took the money) from that reference.
      await db.schema
        .createTable("rail_charges")
        .addColumn("rail_reference", "text", (c) => c.primaryKey())
        .addColumn("rail", "text", (c) => c.notNull())
        .addColumn("attempt_id", "text", (c) => c.notNull().unique())
        .addColumn("transaction_id", "text", (c) => c.notNull())
        .addColumn("merchant_id", "text", (c) => c.notNull())
        .addColumn("mode", "text", (c) => c.notNull())
        .addColumn("channel", "text", (c) => c.notNull())
        .addColumn("key_source", "text", (c) => c.notNull())
        .addColumn("amount_minor", "bigint", (c) => c.notNull())
        .addColumn("currency", "text", (c) => c.notNull())
        // The processor's own id of the charge, once an answer told it.
        .addColumn("rail_id", "text")
        .addColumn("created_at", "bigint", (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex("rail_charges_rail_id")
        .on("rail_charges")
        .columns(["rail", "rail_id"])
        .execute();

      // Processor events already acted on, by a key of the event itself: a delivery seen before (a retry, a
      // replay) changes nothing. Kept at least as long as the webhook's age limit (PAYSTACK_WEBHOOK_MAX_AGE_SECONDS).
      await db.schema
        .createTable("processor_events")
        .addColumn("event_key", "text", (c) => c.primaryKey())
        .addColumn("rail", "text", (c) => c.notNull())
        .addColumn("event", "text", (c) => c.notNull())
        .addColumn("reference", "text")
        .addColumn("outcome", "text", (c) => c.notNull())
        .addColumn("received_at", "bigint", (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex("processor_events_received")
        .on("processor_events")
        .column("received_at")
        .execute();

      // The processor's reference of the charge whose money a refund returns (null on the sandbox).
      await db.schema.alterTable("refunds").addColumn("charge_reference", "text").execute();
      await db.schema
        .createIndex("refunds_charge_reference")
        .on("refunds")
        .column("charge_reference")
        .execute();
      // The rail that issued a virtual account (null: the sandbox). A processor's accounts are found by the
      // charge's reference, never by number: processors hand the same numbers out again after they expire.
      await db.schema.alterTable("virtual_accounts").addColumn("rail", "text").execute();
    },
  },
  "0021_embed_origins": {
    async up(db: Kysely<unknown>) {
      // The web origins allowed to frame a merchant's checkout (lib/merchants/embed-origins.ts): a JSON array of
      // origins ("https://shop.example"); null, as on every merchant before, frames it nowhere.
      await db.schema.alterTable("merchants").addColumn("embed_origins", "text").execute();
    },
  },
};
