import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { Kysely, sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ImmediateSqliteDialect, statementCache } from "./sqlite-driver";

type T = { t: { id: number; note: string } };

const sleep = (ms: number) => new Promise<"waiting">((r) => setTimeout(() => r("waiting"), ms));

describe("ImmediateSqliteDialect", () => {
  const dir = mkdtempSync(join(tmpdir(), "paygate-driver-"));
  const sqlite = new Database(join(dir, "db.sqlite"));
  const dialect = new ImmediateSqliteDialect(sqlite);
  const db = new Kysely<T>({ dialect });
  const notes = async () =>
    (await db.selectFrom("t").select("note").orderBy("id").execute()).map((r) => r.note);

  beforeAll(async () => {
    await sql`create table t (id integer primary key, note text not null)`.execute(db);
  });
  afterAll(async () => {
    await db.destroy();
    rmSync(dir, { recursive: true, force: true });
  });

  it("begins transactions IMMEDIATE (the write lock up front)", async () => {
    const seen: string[] = [];
    const logged = new Kysely<T>({
      dialect: new ImmediateSqliteDialect(new Database(":memory:")),
      log: (e) => void seen.push(e.query.sql),
    });
    await logged.transaction().execute(async (trx) => sql`select 1`.execute(trx));
    await logged.destroy();
    expect(seen[0]).toBe("begin immediate");
  });

  it("a query on the database inside a transaction waits for its end and runs on its own", async () => {
    let outside: Promise<unknown> | undefined;
    await expect(
      db.transaction().execute(async (trx) => {
        await trx.insertInto("t").values({ id: 1, note: "in the transaction" }).execute();
        // The wrong executor: Kysely's connection mutex holds it back until the transaction ends.
        outside = db.insertInto("t").values({ id: 2, note: "outside" }).execute();
        expect(await Promise.race([outside, sleep(50)])).toBe("waiting");
        throw new Error("roll back");
      }),
    ).rejects.toThrow("roll back");
    await outside;
    // The rollback took the transaction's row only; the other insert ran afterwards, in no transaction.
    expect(await notes()).toEqual(["outside"]);
  });

  it("serves one Kysely instance", () => {
    expect(() => new Kysely<T>({ dialect })).toThrow(/one Kysely instance/);
  });
});

describe("statementCache", () => {
  it("prepares a statement once per SQL text and keeps at most `size`, the least recently used dropped", () => {
    const sqlite = new Database(":memory:");
    let prepared = 0;
    const counting = new Proxy(sqlite, {
      get(target, prop) {
        if (prop === "prepare")
          return (text: string) => {
            prepared++;
            return target.prepare(text);
          };
        const value = Reflect.get(target, prop, target);
        return typeof value === "function" ? value.bind(target) : value;
      },
    });
    const cache = statementCache(counting, 2);
    const one = cache.prepare("select 1 as n");
    expect(cache.prepare("select 1 as n")).toBe(one);
    expect(prepared).toBe(1);
    cache.prepare("select 2 as n");
    cache.prepare("select 1 as n"); // used: "select 2" is now the least recent
    cache.prepare("select 3 as n"); // over the size: "select 2" goes
    expect(prepared).toBe(3);
    expect(cache.prepare("select 1 as n")).toBe(one);
    cache.prepare("select 2 as n");
    expect(prepared).toBe(4);
    cache.close();
    expect(sqlite.open).toBe(false);
  });

  it("a kept statement sees a change of schema made by another connection", async () => {
    const dir = mkdtempSync(join(tmpdir(), "paygate-cache-"));
    const file = join(dir, "db.sqlite");
    const other = new Database(file);
    other.exec("create table t (id integer primary key, note text not null); insert into t values (1, 'a')");
    const db = new Kysely<{ t: { id: number; note: string; extra?: string } }>({
      dialect: new ImmediateSqliteDialect(new Database(file)),
    });
    try {
      const all = () => sql<Record<string, unknown>>`select * from t`.execute(db).then((r) => r.rows);
      expect(await all()).toEqual([{ id: 1, note: "a" }]);
      other.exec("alter table t add column extra text not null default 'x'");
      expect(await all()).toEqual([{ id: 1, note: "a", extra: "x" }]);
      other.exec("drop table t; create table t (id integer primary key, note text not null)");
      expect(await all()).toEqual([]);
    } finally {
      await db.destroy();
      other.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
