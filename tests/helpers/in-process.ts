import pg from "pg";
import type { openDatabase as OpenDatabase } from "@/lib/db/client";

/**
 * Databases for suites that run the domain code in the test process itself (no server): SQLite always (the
 * file DATABASE_URL names), PostgreSQL too when TEST_DATABASE_URL names a server (a fresh database on it,
 * dropped by `dropAll`). The process's database handle is swapped per target, as lib/db/client keeps it.
 */
type Handle = ReturnType<typeof OpenDatabase>;
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
