import { afterAll } from "vitest";
import { type Db, openDatabase } from "@/lib/db/client";
import type { Target } from "../setup/servers";

const open = new Map<string, Db>();

/**
 * Direct access to a target's database, for checks the API cannot show (rows written or not, stored hashes)
 * and for moving time (expiring a session). Closed after the file's tests.
 */
export function testDb(target: Target): Db {
  let db = open.get(target.databaseUrl);
  if (!db) {
    db = openDatabase(target.databaseUrl).db;
    open.set(target.databaseUrl, db);
  }
  return db;
}

afterAll(async () => {
  for (const db of open.values()) await db.destroy();
  open.clear();
});
