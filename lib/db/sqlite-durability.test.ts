import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "kysely";
import { afterEach, describe, expect, it } from "vitest";
import { openDatabase } from "./client";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** SQLite's numbers for `PRAGMA synchronous`. */
const FULL = 2;

describe("the SQLite ledger's durability", () => {
  // In WAL mode, synchronous = NORMAL syncs the WAL only at checkpoints: a commit acknowledged before a power
  // loss or an operating-system crash can roll back. FULL syncs it on every commit (docs/storage.md).
  it("commits with synchronous = FULL in WAL mode", async () => {
    const dir = mkdtempSync(join(tmpdir(), "paygate-durability-"));
    dirs.push(dir);
    const { db } = openDatabase(`file:${join(dir, "ledger.db")}`);
    try {
      const mode = await sql<{ journal_mode: string }>`pragma journal_mode`.execute(db);
      expect(mode.rows[0]?.journal_mode).toBe("wal");
      const sync = await sql<{ synchronous: number }>`pragma synchronous`.execute(db);
      expect(sync.rows[0]?.synchronous).toBe(FULL);
      // The setting is the connection's, so it holds inside a transaction too.
      const inside = await db
        .transaction()
        .execute((trx) => sql<{ synchronous: number }>`pragma synchronous`.execute(trx));
      expect(inside.rows[0]?.synchronous).toBe(FULL);
    } finally {
      await db.destroy();
    }
  });
});
