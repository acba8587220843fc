import { mkdirSync } from "node:fs";
import { dirname, resolve } from "node:path";
import Database from "better-sqlite3";
import { Redis } from "ioredis";
import {
  type RateLimiterAbstract,
  RateLimiterMemory,
  RateLimiterPostgres,
  RateLimiterRedis,
  RateLimiterSQLite,
} from "rate-limiter-flexible";
import { database } from "@/lib/db/client";
import { env } from "@/lib/env";
import { log } from "@/lib/log";
import { processState } from "@/lib/process-state";

/**
 * Where the rate-limit budgets live, so that every process and instance spends from the same ones
 * (rate-limiter-flexible does the counting, atomically in each store):
 *  - Redis when `REDIS_URL` is set;
 *  - else PostgreSQL when the service runs on it: the `rate_limits` table (migration 0008);
 *  - else SQLite: a file of its own beside the database (`<name>.rate-limits.db`), shared by the processes of
 *    this machine (SQLite cannot serve more than one), on its own connection. Not the database's own file:
 *    a request's transaction holds that file's write lock across awaits, and a synchronous write to it from
 *    the same process would wait for a lock it is itself keeping;
 *  - in memory only where a test asks for it (`useMemoryRateLimits`).
 */
export type RateLimitStore = "memory" | "sqlite" | "postgres" | "redis";

const state = processState("rateLimit.store", () => ({
  forced: undefined as RateLimitStore | undefined,
  sqlite: undefined as Database.Database | undefined,
  redis: undefined as Redis | undefined,
}));

/** For unit tests that run the limiter in one process without a database. */
export function useMemoryRateLimits(): void {
  state.forced = "memory";
}

export function rateLimitStore(): RateLimitStore {
  if (state.forced) return state.forced;
  if (env().REDIS_URL) return "redis";
  return database().dialect === "postgres" ? "postgres" : "sqlite";
}

/** The table both database stores keep budgets in (the columns rate-limiter-flexible expects). */
export const RATE_LIMITS_TABLE = "rate_limits";

/** The side file of the SQLite store, next to the database file. */
export function sqliteRateLimitFile(databaseUrl: string): string {
  const file = resolve(databaseUrl.replace(/^file:/, ""));
  return `${file.replace(/\.db$/, "")}.rate-limits.db`;
}

function sqliteStore(): Database.Database {
  if (!state.sqlite) {
    const file = sqliteRateLimitFile(env().DATABASE_URL);
    mkdirSync(dirname(file), { recursive: true });
    const db = new Database(file);
    db.pragma("journal_mode = WAL");
    // Budgets are worth a crash of the machine at most: no fsync on commit.
    db.pragma("synchronous = OFF");
    db.pragma("busy_timeout = 2000");
    db.exec(
      `create table if not exists ${RATE_LIMITS_TABLE} (key text primary key, points integer not null default 0, expire integer)`,
    );
    state.sqlite = db;
  }
  return state.sqlite;
}

function redisStore(): Redis {
  if (!state.redis) {
    const client = new Redis(env().REDIS_URL as string, {
      // A command while Redis is away fails at once (the request answers 503) instead of queueing.
      enableOfflineQueue: false,
      maxRetriesPerRequest: 1,
      connectTimeout: 2000,
    });
    client.on("error", (err) => log.warn("redis error", { error: err.message }));
    state.redis = client;
  }
  return state.redis;
}

/**
 * Open the store's connection at start-up rather than on the first request: a Redis client that is still
 * connecting refuses commands (they fail at once rather than queue), which would make the first requests 503.
 * Waits up to 5 s; a Redis that is not there yet is logged, and requests answer 503 until it is.
 */
export async function connectRateLimitStore(): Promise<void> {
  if (rateLimitStore() !== "redis") return;
  const client = redisStore();
  if (client.status === "ready") return;
  const ready = await Promise.race([
    new Promise<boolean>((resolve) => client.once("ready", () => resolve(true))),
    new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 5_000).unref()),
  ]);
  if (!ready) log.warn("redis not reachable at start-up; rate-limited requests answer 503 until it is");
}

/**
 * A fixed-window counter of `points` per `duration` seconds under `keyPrefix`, in this process's store. With
 * `blockDuration`, the request that goes over `points` blocks the key for that many seconds instead.
 */
export function createLimiter(opts: {
  keyPrefix: string;
  points: number;
  duration: number;
  blockDuration?: number;
}): RateLimiterAbstract {
  switch (rateLimitStore()) {
    case "memory":
      return new RateLimiterMemory(opts);
    case "redis":
      return new RateLimiterRedis({
        ...opts,
        keyPrefix: `paygate:rl:${opts.keyPrefix}`,
        storeClient: redisStore(),
        rejectIfRedisNotReady: true,
      });
    case "postgres": {
      const pool = database().pool;
      if (!pool) throw new Error("the PostgreSQL rate-limit store needs the database's pool");
      return new RateLimiterPostgres({
        ...opts,
        storeClient: pool,
        storeType: "pool",
        tableName: RATE_LIMITS_TABLE,
        tableCreated: true,
      });
    }
    case "sqlite":
      return new RateLimiterSQLite({
        ...opts,
        storeClient: sqliteStore(),
        storeType: "better-sqlite3",
        tableName: RATE_LIMITS_TABLE,
        tableCreated: true,
      });
  }
}

/** Close the store's own connections (graceful shutdown). */
export async function closeRateLimitStore(): Promise<void> {
  state.sqlite?.close();
  state.sqlite = undefined;
  await state.redis?.quit().catch(() => undefined);
  state.redis = undefined;
}
