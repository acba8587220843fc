import { mkdirSync } from "node:fs";
import { dirname, resolve } from "node:path";
import Database from "better-sqlite3";
import { Kysely, PostgresDialect } from "kysely";
import pg from "pg";
import { env } from "@/lib/env";
import type { Database as Schema } from "./schema";
import { ImmediateSqliteDialect } from "./sqlite-driver";

export type Db = Kysely<Schema>;
export type Dialect = "sqlite" | "postgres";

type Handle = {
  db: Db;
  dialect: Dialect;
  url: string;
  /** PostgreSQL only: the connection pool under `db` (the rate-limit store shares it). */
  pool?: pg.Pool;
};

/**
 * Open a database from a URL: `file:<path>` (SQLite, WAL) or `postgres://…`. On SQLite, WAL checkpoints are
 * SQLite's own: inside the commit that takes the WAL past 1000 pages.
 */
export function openDatabase(url: string): Handle {
  if (url.startsWith("postgres://") || url.startsWith("postgresql://")) {
    const pool = new pg.Pool({
      connectionString: url,
      max: 10,
      // While the server is down or restarting, a request fails within seconds (503) rather than hanging:
      // connecting gives up after 5 s, a query after 30 s.
      connectionTimeoutMillis: 5_000,
      query_timeout: 30_000,
    });
    // An idle client's error (server restart) must not crash the process; the next query reconnects.
    pool.on("error", (err) =>
      console.error(JSON.stringify({ level: "error", msg: "pg pool error", err: err.message })),
    );
    return {
      db: new Kysely<Schema>({ dialect: new PostgresDialect({ pool }) }),
      dialect: "postgres",
      url,
      pool,
    };
  }
  const file = resolve(url.replace(/^file:/, ""));
  mkdirSync(dirname(file), { recursive: true });
  const sqlite = new Database(file);
  sqlite.pragma("journal_mode = WAL");
  // FULL: every commit is fsynced to the WAL before it returns, so a payment the service has acknowledged
  // survives a power loss or an operating-system crash. With NORMAL, WAL mode syncs only at checkpoints, and
  // the last commits before such a crash can roll back (docs/storage.md, with the measured cost).
  sqlite.pragma("synchronous = FULL");
  sqlite.pragma("busy_timeout = 5000");
  sqlite.pragma("foreign_keys = ON");
  // Once a checkpoint has copied the whole WAL back, the next writer restarts it from the top; this caps the
  // file left behind after a burst of writes.
  sqlite.pragma("journal_size_limit = 67108864");
  return {
    db: new Kysely<Schema>({ dialect: new ImmediateSqliteDialect(sqlite) }),
    dialect: "sqlite",
    url,
  };
}

const globalForDb = globalThis as unknown as { __paygateDb?: Handle };

/** The process-wide database, opened on first use from `DATABASE_URL`. */
export function database(): Handle {
  globalForDb.__paygateDb ??= openDatabase(env().DATABASE_URL);
  return globalForDb.__paygateDb;
}

export function db(): Db {
  return database().db;
}
