import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { sql } from "kysely";
import { afterEach, describe, expect, it } from "vitest";
import { openDatabase } from "./client";
import { startCheckpointer } from "./sqlite-checkpointer";

const dirs: string[] = [];
function tempFile() {
  const dir = mkdtempSync(join(tmpdir(), "paygate-ckpt-"));
  dirs.push(dir);
  return join(dir, "db.sqlite");
}
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

async function waitFor(check: () => boolean, ms = 10_000) {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function autocheckpoint(db: ReturnType<typeof openDatabase>["db"]) {
  const { rows } = await sql<{ wal_autocheckpoint: number }>`pragma wal_autocheckpoint`.execute(db);
  return rows[0]?.wal_autocheckpoint;
}

async function fill(db: ReturnType<typeof openDatabase>["db"]) {
  await sql`create table t (id integer primary key, payload text not null)`.execute(db);
  // 200 commits of ten 1 KiB rows: several hundred WAL pages, none checkpointed by the writer itself. (Each
  // commit is fsynced, synchronous = FULL: a few hundred of them, not thousands, keep the test quick.)
  for (let i = 0; i < 200; i++) {
    await db.transaction().execute(async (trx) => {
      for (let j = 0; j < 10; j++)
        await sql`insert into t (payload) values (${"x".repeat(1024)})`.execute(trx);
    });
  }
}

describe("SQLite WAL checkpoints", () => {
  it("run on their own thread by default: commits never checkpoint, the database file still catches up", async () => {
    const file = tempFile();
    const { db } = openDatabase(`file:${file}`, { checkpoints: "thread" });
    expect(await autocheckpoint(db)).toBe(0);
    const before = statSync(file).size;
    await fill(db);
    // The pages reach the database file only through a checkpoint, and this connection never runs one.
    await waitFor(() => statSync(file).size > before + 1_000_000);
    expect(await autocheckpoint(db)).toBe(0);
    await db.destroy();
  });

  it("stay inside commits with checkpoints: inline (SQLite's default of 1000 pages)", async () => {
    const { db } = openDatabase(`file:${tempFile()}`, { checkpoints: "inline" });
    expect(await autocheckpoint(db)).toBe(1000);
    await db.destroy();
  });

  it("go back to the main connection when the thread fails, so the WAL never grows unchecked", async () => {
    const file = tempFile();
    const sqlite = new Database(file);
    sqlite.pragma("journal_mode = WAL");
    // The thread cannot open a file that does not exist (fileMustExist): it fails right after starting.
    const checkpointer = startCheckpointer(sqlite, join(file, "..", "missing.sqlite"));
    expect(checkpointer).not.toBeNull();
    expect(sqlite.pragma("wal_autocheckpoint", { simple: true })).toBe(0);
    await waitFor(() => sqlite.pragma("wal_autocheckpoint", { simple: true }) === 1000);
    sqlite.close();
  });
});
