import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Db, openDatabase } from "./client";
import { migrateToLatest } from "./migrate";
import { insertRow, type Param, prepared } from "./prepared";

// SQLite always; PostgreSQL too when TEST_DATABASE_URL is set (a fresh database, dropped afterwards).
const targets: Array<{ name: string; open: () => Promise<{ db: Db; close: () => Promise<void> }> }> = [
  {
    name: "sqlite",
    open: async () => {
      const dir = mkdtempSync(join(tmpdir(), "paygate-prepared-"));
      const { db } = openDatabase(`file:${join(dir, "db.sqlite")}`, { checkpoints: "inline" });
      return {
        db,
        close: async () => {
          await db.destroy();
          rmSync(dir, { recursive: true, force: true });
        },
      };
    },
  },
];
const adminUrl = process.env.TEST_DATABASE_URL;
if (adminUrl) {
  targets.push({
    name: "postgres",
    open: async () => {
      const name = `paygate_prepared_${Date.now()}_${process.pid}`;
      const admin = new pg.Client({ connectionString: adminUrl });
      await admin.connect();
      await admin.query(`CREATE DATABASE ${name}`);
      await admin.end();
      const url = new URL(adminUrl);
      url.pathname = `/${name}`;
      const { db } = openDatabase(url.toString());
      return {
        db,
        close: async () => {
          await db.destroy();
          const again = new pg.Client({ connectionString: adminUrl });
          await again.connect();
          await again.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
          await again.end();
        },
      };
    },
  });
}

const merchant = (id: string) => ({
  id,
  business_name: `Shop ${id}`,
  email: `${id}@example.com`,
  password_hash: "x",
  channels: '["card"]',
  merchant_bears_cost: 0,
  brand_color: null as string | null,
  logo_url: null as string | null,
  created_at: 1,
  updated_at: 1,
});

const byEmail = prepared((db, param: Param<{ email: string; channels: string }>) =>
  db
    .selectFrom("merchants")
    .select(["id", "business_name"])
    .where("email", "=", param("email"))
    // A value fixed at build time stays in its slot between the named ones.
    .where("merchant_bears_cost", "=", 0)
    .where("channels", "=", param("channels"))
    .orderBy("id"),
);

describe.each(targets)("prepared queries on $name", ({ open }) => {
  let db: Db;
  let close: () => Promise<void>;
  beforeAll(async () => {
    ({ db, close } = await open());
    await migrateToLatest(db);
    for (const id of ["m1", "m2", "m3"]) await db.executeQuery(insertRow(db, "merchants", merchant(id)));
  });
  afterAll(async () => close?.());

  it("fills each call's values into the one compiled statement", async () => {
    const first = byEmail(db, { email: "m1@example.com", channels: '["card"]' });
    const second = byEmail(db, { email: "m2@example.com", channels: '["card"]' });
    expect(second.sql).toBe(first.sql);
    expect(first.parameters).toEqual(["m1@example.com", 0, '["card"]']);
    expect((await db.executeQuery(first)).rows).toEqual([{ id: "m1", business_name: "Shop m1" }]);
    expect((await db.executeQuery(second)).rows).toEqual([{ id: "m2", business_name: "Shop m2" }]);
    expect((await db.executeQuery(byEmail(db, { email: "m2@example.com", channels: "[]" }))).rows).toEqual(
      [],
    );
  });

  it("writes the same SQL Kysely would", () => {
    const direct = db
      .selectFrom("merchants")
      .select(["id", "business_name"])
      .where("email", "=", "m1@example.com")
      .where("merchant_bears_cost", "=", 0)
      .where("channels", "=", '["card"]')
      .orderBy("id")
      .compile();
    const viaPrepared = byEmail(db, { email: "m1@example.com", channels: '["card"]' });
    expect(viaPrepared.sql).toBe(direct.sql);
    expect(viaPrepared.parameters).toEqual(direct.parameters);
  });

  it("inserts rows of the same shape through one statement, nulls included", async () => {
    const a = insertRow(db, "merchants", { ...merchant("m4"), email: "m4@example.com" });
    const b = insertRow(db, "merchants", merchant("m5"));
    expect(b.sql).toBe(a.sql);
    await db.executeQuery(a);
    await db.executeQuery(b);
    // Another shape (brand colour set) is its own statement.
    const c = insertRow(db, "merchants", { ...merchant("m6"), brand_color: "#112233" });
    expect(c.sql).toBe(a.sql);
    await db.executeQuery(c);
    const rows = await db
      .selectFrom("merchants")
      .select(["id", "email", "brand_color", "logo_url"])
      .where("id", "in", ["m4", "m5", "m6"])
      .orderBy("id")
      .execute();
    expect(rows).toEqual([
      { id: "m4", email: "m4@example.com", brand_color: null, logo_url: null },
      { id: "m5", email: "m5@example.com", brand_color: null, logo_url: null },
      { id: "m6", email: "m6@example.com", brand_color: "#112233", logo_url: null },
    ]);
    const shortRow = { ...merchant("m7") } as Partial<ReturnType<typeof merchant>>;
    delete shortRow.brand_color;
    const d = insertRow(db, "merchants", shortRow as ReturnType<typeof merchant>);
    expect(d.sql).not.toBe(a.sql);
    await db.executeQuery(d);
    expect(
      await db.selectFrom("merchants").select("brand_color").where("id", "=", "m7").executeTakeFirst(),
    ).toEqual({
      brand_color: null,
    });
  });

  it("refuses a call without a value for a parameter", () => {
    expect(() => byEmail(db, { email: "m1@example.com" } as never)).toThrow(
      /no value for parameter channels/,
    );
  });

  it("refuses a build that hides a stand-in inside another value", () => {
    const broken = prepared((d, param: Param<{ email: string }>) =>
      d
        .selectFrom("merchants")
        .select("id")
        .where("email", "=", `x${param("email")}`),
    );
    expect(() => broken(db, { email: "a" })).toThrow(/stand-in was used inside a value/);
  });

  it("refuses a build whose stand-in never reaches the SQL", () => {
    const broken = prepared((d, param: Param<{ email: string }>) => {
      param("email");
      return d.selectFrom("merchants").select("id");
    });
    expect(() => broken(db, { email: "a" })).toThrow(/email did not reach the SQL/);
  });
});
