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
 * Migration 0026 on a database with payments made before customers existed: every transaction with an email
 * gets the customer of that email (one per merchant, mode and email in any casing, made from its first
 * payment), and a transaction without an email none. On SQLite, and on PostgreSQL when TEST_DATABASE_URL is set.
 */
const dir = mkdtempSync(join(tmpdir(), "paygate-migrate-customers-"));
const drops: Array<() => Promise<void>> = [];

afterAll(async () => {
  for (const drop of drops) await drop();
  rmSync(dir, { recursive: true, force: true });
});

async function postgresUrl(adminUrl: string): Promise<string> {
  const name = `paygate_test_${Date.now()}_${process.pid}_migrate_customers`;
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

describe.each(kinds)("migration 0026 (customers) on $name", (kind) => {
  it("gives every earlier payment with an email its customer, one per email in any casing", async () => {
    const handle = openDatabase(await kind.url());
    const db = handle.db as unknown as Kysely<unknown>;
    try {
      const before = Object.fromEntries(Object.entries(migrations).filter(([name]) => name < "0026"));
      const migrator = new Migrator({
        db,
        provider: { getMigrations: async () => before },
        migrationTableName: "schema_migrations",
        migrationLockTableName: "schema_migrations_lock",
      });
      expect((await migrator.migrateToLatest()).error).toBeUndefined();

      const t = 1_700_000_000_000;
      await sql`insert into merchants (id, business_name, email, password_hash, channels, merchant_bears_cost, created_at, updated_at)
        values ('m1', 'Shop', 'shop@example.com', 'x', '["card"]', 0, ${t}, ${t}),
               ('m2', 'Other', 'other@example.com', 'x', '["card"]', 0, ${t}, ${t})`.execute(db);
      const payment = (id: string, merchant: string, mode: string, email: string | null, at: number) =>
        sql`insert into transactions (id, reference, merchant_id, mode, access_code, access_expires_at, amount_minor,
            currency, email, merchant_bears_cost, channels, card_fee_minor, transfer_fee_minor, status, created_at, updated_at)
          values (${id}, ${`PAY_TXN_${id}`}, ${merchant}, ${mode}, ${`ac_${id}`}, ${at}, 500000, 'NGN', ${email}, 0,
            '["card"]', 0, 0, 'success', ${at}, ${at})`.execute(db);
      await payment("T1", "m1", "test", "Ada@Example.com", t + 2);
      await payment("T2", "m1", "test", " ada@example.com", t + 1);
      await payment("T3", "m1", "live", "ada@example.com", t + 3);
      await payment("T4", "m2", "test", "ada@example.com", t + 4);
      await payment("T5", "m1", "test", null, t + 5);
      await payment("T6", "m1", "test", "bola@example.com", t + 6);

      await migrateToLatest(handle.db);
      const customers = (
        await sql<{ id: string; merchant_id: string; mode: string; email_key: string; created_at: unknown }>`
          select id, merchant_id, mode, email_key, created_at from customers order by merchant_id, mode, email_key`.execute(
          db,
        )
      ).rows;
      expect(customers.map((c) => [c.merchant_id, c.mode, c.email_key, Number(c.created_at)])).toEqual([
        ["m1", "live", "ada@example.com", t + 3],
        ["m1", "test", "ada@example.com", t + 1],
        ["m1", "test", "bola@example.com", t + 6],
        ["m2", "test", "ada@example.com", t + 4],
      ]);
      for (const c of customers) expect(c.id).toMatch(/^CUS_[0-9A-HJKMNP-TV-Z]{20}$/);
      const owners = (
        await sql<{
          id: string;
          customer_id: string | null;
        }>`select id, customer_id from transactions order by id`.execute(db)
      ).rows;
      const code = (merchant: string, mode: string, email: string) =>
        customers.find((c) => c.merchant_id === merchant && c.mode === mode && c.email_key === email)?.id;
      expect(Object.fromEntries(owners.map((o) => [o.id, o.customer_id]))).toEqual({
        T1: code("m1", "test", "ada@example.com"),
        T2: code("m1", "test", "ada@example.com"),
        T3: code("m1", "live", "ada@example.com"),
        T4: code("m2", "test", "ada@example.com"),
        T5: null,
        T6: code("m1", "test", "bola@example.com"),
      });
      const merchantInitiated = (
        await sql<{
          n: unknown;
        }>`select count(*) as n from transactions where merchant_initiated = 0`.execute(db)
      ).rows[0];
      expect(Number(merchantInitiated?.n)).toBe(6);
    } finally {
      await handle.db.destroy();
    }
  });
});
