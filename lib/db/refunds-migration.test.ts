import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Kysely, sql } from "kysely";
import { Migrator } from "kysely/migration";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { openDatabase } from "./client";
import { migrateToLatest } from "./migrate";
import { migrations } from "./migrations";

/**
 * Migration 0011 on a database that has money recorded as due back (the `refunds_due` table of 0002): every
 * row becomes an automatic refund, pending and due at once, with its reason, source, transaction reference and
 * the rail the money goes back through; the old table is gone; endpoints subscribed to every event also hear
 * the refund events. On SQLite, and on PostgreSQL when TEST_DATABASE_URL is set.
 */
const dir = mkdtempSync(join(tmpdir(), "paygate-migrate-"));
const drops: Array<() => Promise<void>> = [];

afterAll(async () => {
  for (const drop of drops) await drop();
  rmSync(dir, { recursive: true, force: true });
});

async function postgresUrl(adminUrl: string): Promise<string> {
  const name = `paygate_test_${Date.now()}_${process.pid}_migrate`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  drops.push(async () => {
    const c = new pg.Client({ connectionString: adminUrl });
    await c.connect();
    await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await c.end();
  });
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

const kinds = [
  { name: "sqlite", url: async () => `file:${join(dir, "db.sqlite")}` },
  ...(process.env.TEST_DATABASE_URL
    ? [{ name: "postgres", url: () => postgresUrl(process.env.TEST_DATABASE_URL as string) }]
    : []),
];

describe.each(kinds)("migration 0011 (refunds) on $name", (kind) => {
  it("turns every refunds_due row into an automatic refund", async () => {
    const handle = openDatabase(await kind.url());
    const db = handle.db as unknown as Kysely<unknown>;
    try {
      const before = Object.fromEntries(Object.entries(migrations).filter(([name]) => name < "0011"));
      const migrator = new Migrator({
        db,
        provider: { getMigrations: async () => before },
        migrationTableName: "schema_migrations",
        migrationLockTableName: "schema_migrations_lock",
      });
      const { error } = await migrator.migrateToLatest();
      expect(error).toBeUndefined();

      const t = 1_700_000_000_000;
      await sql`insert into merchants (id, business_name, email, password_hash, channels, merchant_bears_cost, created_at, updated_at)
        values ('m1', 'Shop', 'shop@example.com', 'x', '["card"]', 0, ${t}, ${t})`.execute(db);
      await sql`insert into transactions (id, reference, merchant_id, mode, access_code, access_expires_at, amount_minor,
          currency, merchant_bears_cost, channels, card_fee_minor, transfer_fee_minor, status, created_at, updated_at)
        values ('t1', 'PAY_TXN_MIGRATED0000000001', 'm1', 'test', 'ac1', ${t}, 500000, 'NGN', 0, '["card"]', 0, 0,
          'success', ${t}, ${t})`.execute(db);
      await sql`insert into inbound_transfers (id, rail, session_id, account_number, amount_minor, merchant_id, mode,
          transaction_id, outcome, received_at)
        values ('in1', 'sandbox:m1', 's1', '1234567890', 505000, 'm1', 'test', 't1', 'duplicate_payment', ${t}),
               ('in2', 'sandbox:m1', 's2', '9999999999', 1000, null, null, null, 'unknown_account', ${t})`.execute(
        db,
      );
      await sql`insert into refunds_due (id, transaction_id, merchant_id, mode, source, source_id, amount_minor, currency,
          reason, status, created_at)
        values ('d1', 't1', 'm1', 'test', 'bank_transfer', 'in1', 505000, 'NGN', 'duplicate_payment', 'pending', ${t}),
               ('d2', null, null, null, 'bank_transfer', 'in2', 1000, 'NGN', 'unknown_account', 'pending', ${t + 1})`.execute(
        db,
      );
      const all = JSON.stringify([
        "payment.completed",
        "payment.failed",
        "checkout.awaiting_transfer",
        "checkout.completed",
        "checkout.amount_mismatch",
      ]);
      await sql`insert into webhook_endpoints (id, merchant_id, mode, url, events, secret_sealed, status, created_at, updated_at)
        values ('e1', 'm1', 'test', 'https://example.com/hook', ${all}, 'sealed', 'enabled', ${t}, ${t})`.execute(
        db,
      );

      expect(await migrateToLatest(handle.db)).toContain("0011_refunds");

      const refunds = await handle.db.selectFrom("refunds").selectAll().orderBy("created_at").execute();
      expect(
        refunds.map((r) => ({
          ...r,
          amount_minor: String(r.amount_minor),
          created_at: Number(r.created_at),
          // Due at once: the rail is asked on the next sweep.
          due_at: Number(r.due_at) <= Date.now() && Number(r.due_at) > t,
          updated_at: Number(r.updated_at) > t,
        })),
      ).toEqual([
        {
          id: "rfd_d1",
          transaction_id: "t1",
          merchant_id: "m1",
          mode: "test",
          reference: "PAY_TXN_MIGRATED0000000001",
          type: "automatic",
          reason: "duplicate_payment",
          amount_minor: "505000",
          currency: "NGN",
          status: "pending",
          source: "bank_transfer",
          source_id: "in1",
          rail: "sandbox",
          rail_reference: null,
          // Added by migration 0020 (processor refunds), null for money of the sandbox.
          charge_reference: null,
          failure_reason: null,
          due_at: true,
          created_at: t,
          processed_at: null,
          updated_at: true,
        },
        expect.objectContaining({
          id: "rfd_d2",
          transaction_id: null,
          merchant_id: null,
          reference: null,
          reason: "unknown_account",
          amount_minor: "1000",
          rail: "sandbox",
          source_id: "in2",
        }),
      ]);
      const tx = await handle.db
        .selectFrom("transactions")
        .select(["amount_refunded_minor", "refund_credit_minor"])
        .executeTakeFirstOrThrow();
      expect([String(tx.amount_refunded_minor), String(tx.refund_credit_minor)]).toEqual(["0", "0"]);
      await expect(sql`select count(*) from refunds_due`.execute(db)).rejects.toThrow();
      const endpoint = await handle.db
        .selectFrom("webhook_endpoints")
        .select("events")
        .executeTakeFirstOrThrow();
      expect(JSON.parse(endpoint.events)).toEqual([
        ...(JSON.parse(all) as string[]),
        "refund.processed",
        "refund.failed",
        // Migration 0030 (subscriptions), also run by migrateToLatest: every event includes those of subscriptions.
        "subscription.created",
        "subscription.renewed",
        "subscription.past_due",
        "subscription.cancelled",
        "subscription.completed",
        "invoice.payment_failed",
      ]);
    } finally {
      await handle.db.destroy();
    }
  });
});
