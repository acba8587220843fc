import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Kysely } from "kysely";
import pg from "pg";
import type { AccessCodePrincipal } from "@/lib/core/principal";
import type { openDatabase as OpenDatabase } from "@/lib/db/client";
import type { Database } from "@/lib/db/schema";

/**
 * Databases for suites that run the domain code in the test process itself (no server): SQLite always (the
 * file DATABASE_URL names), PostgreSQL too when TEST_DATABASE_URL names a server (a fresh database on it,
 * dropped by `dropAll`). The process's database handle is swapped per target, as lib/db/client keeps it.
 */
type Handle = ReturnType<typeof OpenDatabase>;

const ENV_KEYS = ["DATABASE_URL", "APP_SECRET", "LOG_LEVEL"] as const;

/**
 * Point the domain at a SQLite file in a temp folder of its own. Call it before any lib module is imported
 * (lib/env reads the environment once); `restore` puts the environment back and removes the folder.
 */
export function inProcessEnv(tag: string) {
  const dir = mkdtempSync(join(tmpdir(), `paygate-${tag}-`));
  const saved = Object.fromEntries(ENV_KEYS.map((k) => [k, process.env[k]]));
  process.env.DATABASE_URL = `file:${join(dir, "paygate.db")}`;
  process.env.APP_SECRET = `${tag}-test-secret-0123456789abcdefghijklmnopqrstuvwxyz`;
  process.env.LOG_LEVEL = "silent";
  return {
    restore() {
      rmSync(dir, { recursive: true, force: true });
      for (const k of ENV_KEYS) {
        if (saved[k] === undefined) delete process.env[k];
        else process.env[k] = saved[k];
      }
    },
  };
}
const globalDb = globalThis as unknown as { __paygateDb?: Handle };

export type InProcessTarget = { name: "sqlite" | "postgres"; url: () => Promise<string> };

export function inProcessTargets(tag: string) {
  const drops: Array<() => Promise<void>> = [];

  async function freshPostgres(adminUrl: string): Promise<string> {
    // The prefix of tests/setup/servers.ts, whose start-up drops such databases left by killed runs.
    const name = `paygate_test_${Date.now()}_${process.pid}_${tag}`;
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`).finally(() => admin.end());
    drops.push(async () => {
      const c = new pg.Client({ connectionString: adminUrl });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).finally(() => c.end());
    });
    const url = new URL(adminUrl);
    url.pathname = `/${name}`;
    return url.toString();
  }

  const targets: InProcessTarget[] = [
    { name: "sqlite", url: async () => process.env.DATABASE_URL as string },
  ];
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (adminUrl) targets.push({ name: "postgres", url: () => freshPostgres(adminUrl) });

  /** Close the process's database and drop the PostgreSQL databases made here. */
  async function dropAll() {
    await globalDb.__paygateDb?.db.destroy();
    globalDb.__paygateDb = undefined;
    // pg's pool.end() resolves before its sockets close; let them go before the database is dropped.
    await new Promise((r) => setTimeout(r, 250));
    for (const drop of drops) await drop();
  }

  return { targets, dropAll };
}

/** Make `url` the process's database (closing the one before) and migrate it; answers its Kysely. */
export async function useDatabase(
  openDatabase: typeof OpenDatabase,
  migrate: (db: Handle["db"]) => Promise<unknown>,
  url: string,
) {
  await globalDb.__paygateDb?.db.destroy();
  globalDb.__paygateDb = openDatabase(url);
  await migrate(globalDb.__paygateDb.db);
  return globalDb.__paygateDb.db;
}

/**
 * A merchant signed up in-process, and `open()`: a new NGN 5,000.00 test-mode checkout for it (with an email),
 * as the access-code principal the checkout actions take.
 */
export async function merchantWithCheckouts(db: Kysely<Database>, email: string) {
  const { signupMerchant } = await import("@/lib/merchants/signup-merchant");
  const { initializePayment } = await import("@/lib/payments/initialize-payment");
  const { InitializeBody } = await import("@/lib/payments/schemas");
  const { merchant } = await signupMerchant({
    businessName: "In-process Shop",
    email,
    password: "correct horse battery staple",
    clientAddress: null,
  });
  async function open(): Promise<AccessCodePrincipal> {
    const payment = InitializeBody.parse({ amount: "5000.00", email: "buyer@example.com" });
    const s = await initializePayment({ merchantId: merchant.id, mode: "test", payment });
    const tx = await db
      .selectFrom("transactions")
      .select("id")
      .where("reference", "=", s.reference)
      .executeTakeFirstOrThrow();
    return {
      kind: "access_code",
      merchantId: merchant.id,
      mode: "test",
      transactionId: tx.id,
      reference: s.reference,
    };
  }
  return { merchant, open };
}
