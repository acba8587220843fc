import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

// This file owns the process's database: point DATABASE_URL at a temp file before lib/db/client opens it.
const dir = mkdtempSync(join(tmpdir(), "paygate-read-"));
process.env.DATABASE_URL = `file:${join(dir, "db.sqlite")}`;
process.env.SQLITE_CHECKPOINTS = "inline";
const { database, openDatabase } = await import("./client");
const { readFirst, readRows } = await import("./read");

type T = { t: { id: number; note: string } };

describe("readRows on SQLite", () => {
  const handle = database();
  const db = handle.db as unknown as import("kysely").Kysely<T>;
  const select = () => db.selectFrom("t").select(["id", "note"]).orderBy("id").compile();

  beforeAll(async () => {
    expect(handle.url).toBe(process.env.DATABASE_URL);
    await sql`create table t (id integer primary key, note text not null)`.execute(db);
    await sql`insert into t (id, note) values (1, 'one')`.execute(db);
  });
  afterAll(async () => {
    await handle.db.destroy();
    rmSync(dir, { recursive: true, force: true });
  });

  it("reads at once when the connection is free, without Kysely's executor", async () => {
    const spy = vi.spyOn(handle.db, "executeQuery");
    expect(handle.readNow?.(select())).toEqual([{ id: 1, note: "one" }]);
    expect(await readRows(select() as never)).toEqual([{ id: 1, note: "one" }]);
    expect(await readFirst(select() as never)).toEqual({ id: 1, note: "one" });
    expect(spy).not.toHaveBeenCalled();
    spy.mockRestore();
  });

  it("never reads past an open transaction: it waits for the commit, then sees it", async () => {
    let commit = () => {};
    const held = new Promise<void>((resolve) => {
      commit = resolve;
    });
    let inserted = () => {};
    const insertedYet = new Promise<void>((resolve) => {
      inserted = resolve;
    });
    const trx = db.transaction().execute(async (t) => {
      await sql`insert into t (id, note) values (2, 'two')`.execute(t);
      inserted();
      await held;
    });
    await insertedYet;
    // The transaction holds the connection: no immediate read, and readRows queues behind it.
    expect(handle.readNow?.(select())).toBeUndefined();
    let settled = false;
    const read = readRows(select() as never).then((rows) => {
      settled = true;
      return rows;
    });
    await new Promise((r) => setTimeout(r, 50));
    expect(settled).toBe(false);
    commit();
    await trx;
    expect(await read).toEqual([
      { id: 1, note: "one" },
      { id: 2, note: "two" },
    ]);
  });

  it("inside a transaction, reads through the transaction (its own writes, no deadlock)", async () => {
    const rows = await db.transaction().execute(async (t) => {
      await sql`insert into t (id, note) values (3, 'three')`.execute(t);
      return readRows(select() as never, t as never);
    });
    expect(rows).toHaveLength(3);
  });

  it("refuses a statement that writes", () => {
    const write = db.insertInto("t").values({ id: 9, note: "nine" }).compile();
    expect(() => handle.readNow?.(write)).toThrow(/read-only statements only/);
  });

  it("leaves another database handle to Kysely", async () => {
    const other = openDatabase(`file:${join(dir, "other.sqlite")}`, { checkpoints: "inline" });
    const otherDb = other.db as unknown as import("kysely").Kysely<T>;
    await sql`create table t (id integer primary key, note text not null)`.execute(otherDb);
    await sql`insert into t (id, note) values (7, 'seven')`.execute(otherDb);
    const spy = vi.spyOn(other.db, "executeQuery");
    expect(
      await readRows(otherDb.selectFrom("t").select(["id", "note"]).compile() as never, other.db),
    ).toEqual([{ id: 7, note: "seven" }]);
    expect(spy).toHaveBeenCalledTimes(1);
    await other.db.destroy();
  });
});
