import { randomBytes } from "node:crypto";
import { db } from "@/lib/db/client";
import { env } from "@/lib/env";
import { log } from "@/lib/log";
import { processState } from "@/lib/process-state";

const cache = processState("pepper", () => ({
  value: undefined as Promise<string> | undefined,
  loaded: undefined as string | undefined,
}));

/**
 * The pepper for keyed hashes: `APP_SECRET`, or on a non-production deployment without one, a random value
 * generated once and kept in `app_meta` so every process on the same database agrees on it.
 * Production refuses to start without `APP_SECRET` (lib/env.ts).
 */
export function pepper(): Promise<string> {
  cache.value ??= load().then(
    (value) => {
      cache.loaded = value;
      return value;
    },
    (err) => {
      cache.value = undefined;
      throw err;
    },
  );
  return cache.value;
}

/** The pepper once `pepper()` has loaded it (every server loads it at boot), else undefined: for hot paths. */
export function loadedPepper(): string | undefined {
  return cache.loaded;
}

async function load(): Promise<string> {
  const configured = env().APP_SECRET;
  if (configured) return configured;
  const generated = randomBytes(32).toString("base64url");
  await db()
    .insertInto("app_meta")
    .values({ key: "app_secret", value: generated })
    .onConflict((oc) => oc.column("key").doNothing())
    .execute();
  const row = await db()
    .selectFrom("app_meta")
    .select("value")
    .where("key", "=", "app_secret")
    .executeTakeFirstOrThrow();
  if (row.value === generated)
    log.warn(
      "APP_SECRET is not set; generated one and stored it in the database (fine for development only)",
    );
  return row.value;
}
