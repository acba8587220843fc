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
 * Migration 0023 on a database with checkouts of usage-limited links under way: one whose customer had
 * started paying (a charge attempt) gets that attempt's time as `link_payment_started_at`, so its place is
 * never taken for an idle one and handed over; one nobody had paid for stays null; a transaction of no
 * usage-limited link stays null. On SQLite, and on PostgreSQL when TEST_DATABASE_URL is set.
 */
const dir = mkdtempSync(join(tmpdir(), "paygate-migrate-places-"));
const drops: Array<() => Promise<void>> = [];

afterAll(async () => {
  for (const drop of drops) await drop();
  rmSync(dir, { recursive: true, force: true });
});

async function postgresUrl(adminUrl: string): Promise<string> {
  const name = `paygate_test_${Date.now()}_${process.pid}_migrate_places`;
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

describe.each(kinds)("migration 0023 (a payment link checkout's payment started) on $name", (kind) => {
  it("dates the checkouts whose customer had started paying, and only those", async () => {
    const handle = openDatabase(await kind.url());
    const db = handle.db as unknown as Kysely<unknown>;
    try {
      const before = Object.fromEntries(Object.entries(migrations).filter(([name]) => name < "0023"));
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
      for (const [id, placeUntil] of [
        ["paying", t + 300_000],
        ["idle", t + 300_000],
        ["unlimited", null],
      ] as const) {
        await sql`insert into transactions (id, reference, merchant_id, mode, access_code, access_expires_at, amount_minor,
            currency, merchant_bears_cost, channels, card_fee_minor, transfer_fee_minor, status, created_at, updated_at,
            link_place_until)
          values (${id}, ${`PAY_TXN_${id.toUpperCase()}`}, 'm1', 'test', ${`ac_${id}`}, ${t + 1_800_000}, 250000, 'NGN',
            0, '["card"]', 0, 0, 'pending', ${t}, ${t}, ${placeUntil})`.execute(db);
      }
      for (const [id, tx, at] of [
        ["a1", "paying", t + 60_000],
        ["a2", "paying", t + 90_000],
        ["a3", "unlimited", t + 60_000],
      ] as const) {
        await sql`insert into charge_attempts (id, transaction_id, merchant_id, mode, channel, status, details, created_at, updated_at)
          values (${id}, ${tx}, 'm1', 'test', 'card', 'failed', '{}', ${at}, ${at})`.execute(db);
      }

      expect(await migrateToLatest(handle.db)).toContain("0023_link_payment_started");

      const rows = await handle.db
        .selectFrom("transactions")
        .select(["id", "link_payment_started_at"])
        .orderBy("id")
        .execute();
      expect(
        rows.map((r) => [
          r.id,
          r.link_payment_started_at === null ? null : Number(r.link_payment_started_at),
        ]),
      ).toEqual([
        ["idle", null],
        ["paying", t + 60_000],
        ["unlimited", null],
      ]);
    } finally {
      await handle.db.destroy();
    }
  });
});
