import type { Kysely } from "kysely";
import type { Migration } from "kysely/migration";

/**
 * The ways of paying: charge attempts, virtual accounts, inbound transfers, money due back (until 0011), and
 * the amount-mismatch columns of a transaction.
 * Released: never edit it (lib/db/migrations/index.ts).
 */
export const migration: Migration = {
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
};
