import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { Kysely, sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ImmediateSqliteDialect } from "./sqlite-driver";

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
