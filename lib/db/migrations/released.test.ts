import { readFileSync, writeFileSync } from "node:fs";
import { CompiledQuery, type Kysely } from "kysely";
import { type Migration, Migrator } from "kysely/migration";
import { afterAll, describe, expect, it } from "vitest";
import { openDatabase } from "@/lib/db/client";
import { migrateToLatest } from "@/lib/db/migrate";
import { migrations } from "@/lib/db/migrations";
import { databaseKinds, openLogged, readSchema } from "@/tests/helpers/migrated-schema";

/**
 * Released migrations are never edited. `released.json` holds, per database, the statements each released
 * migration ran when it shipped (recorded from the code that shipped it; a time the migration took from the
 * clock is written "$now", or "$now as text" when it was passed as a decimal string). Two checks on SQLite, and on PostgreSQL when TEST_DATABASE_URL is set:
 *  - every released migration still runs exactly those statements, under the same name, in the same order;
 *  - a database migrated by those statements (the released code's database, Kysely's own bookkeeping and
 *    all) is up to date for this code: migrating it runs nothing but migrations released after it, and it
 *    ends with the same tables, columns, indexes and constraints as a database migrated from empty.
 * A new migration is recorded once, when it is added (and before it ships):
 *   RECORD_MIGRATIONS=1 TEST_DATABASE_URL=postgres://... npx vitest run lib/db/migrations/released.test.ts
 * Recording adds migrations not yet in the file and never changes one that is (`npx biome format --write`
 * lib/db/migrations/released.json after it).
 */
type Statement = { sql: string; parameters: unknown[] };
type Released = Record<"sqlite" | "postgres", Record<string, Statement[]>>;

const FILE = new URL("./released.json", import.meta.url);
const released = JSON.parse(readFileSync(FILE, "utf8")) as Released;
const recording = process.env.RECORD_MIGRATIONS === "1";

const { kinds, cleanup } = databaseKinds("released");
afterAll(cleanup);

const MIGRATION_TABLES = {
  migrationTableName: "schema_migrations",
  migrationLockTableName: "schema_migrations_lock",
};

/** A parameter taken from the clock (within a day of now) → "$now", or "$now as text" for a decimal string. */
function normalise(parameter: unknown): unknown {
  const near = (n: number) => Number.isInteger(n) && Math.abs(n - Date.now()) < 86_400_000;
  if (typeof parameter === "number" && near(parameter)) return "$now";
  if (typeof parameter === "string" && /^\d+$/.test(parameter) && near(Number(parameter)))
    return "$now as text";
  return parameter;
}

/** The recorded parameter as the migration passes it again. */
function denormalise(parameter: unknown): unknown {
  if (parameter === "$now") return Date.now();
  if (parameter === "$now as text") return String(Date.now());
  return parameter;
}

/** Run every migration of this code on an empty database, noting each one's statements. */
async function statementsOf(url: string): Promise<Record<string, Statement[]>> {
  const seen: Record<string, Statement[]> = {};
  let current: string | null = null;
  const db = openLogged(url, (event) => {
    if (current === null) return; // Kysely's own bookkeeping between migrations
    const statement = { sql: event.query.sql, parameters: event.query.parameters.map(normalise) };
    seen[current] = [...(seen[current] ?? []), statement];
  });
  const noted: Record<string, Migration> = Object.fromEntries(
    Object.entries(migrations).map(([name, migration]) => [
      name,
      {
        async up(trx: Kysely<unknown>) {
          current = name;
          try {
            await migration.up(trx);
          } finally {
            current = null;
          }
        },
      },
    ]),
  );
  try {
    const { error } = await new Migrator({
      db,
      provider: { getMigrations: async () => noted },
      ...MIGRATION_TABLES,
    }).migrateToLatest();
    if (error) throw error;
  } finally {
    await db.destroy();
  }
  return seen;
}

describe.each(kinds)("released migrations on $name", (kind) => {
  const dialect = kind.name;

  it("each released migration runs the statements it shipped with, under its name and in its order", async () => {
    const now = await statementsOf(await kind.url());
    const names = Object.keys(migrations);
    const shipped = Object.keys(released[dialect]);
    // Released ones keep their names and order; new ones come after the last released one (Kysely refuses
    // to run a migration that sorts before one a database has already run).
    expect(names.slice(0, shipped.length)).toEqual(shipped);
    expect([...names].sort()).toEqual(names);
    for (const name of shipped)
      expect({ name, statements: now[name] ?? [] }).toEqual({
        name,
        statements: released[dialect][name],
      });

    const unrecorded = names.slice(shipped.length);
    if (recording && unrecorded.length > 0) {
      const next = JSON.parse(readFileSync(FILE, "utf8")) as Released;
      for (const name of unrecorded) next[dialect][name] = now[name] ?? [];
      writeFileSync(FILE, `${JSON.stringify(next, null, 2)}\n`);
    } else {
      expect(unrecorded, "record new migrations: see the comment at the top of this file").toEqual([]);
    }
  });

  it("a database migrated by the released statements is up to date for this code", async () => {
    const replayed = openDatabase(await kind.url());
    const fresh = openDatabase(await kind.url());
    try {
      const asShipped: Record<string, Migration> = Object.fromEntries(
        Object.entries(released[dialect]).map(([name, statements]) => [
          name,
          {
            async up(trx: Kysely<unknown>) {
              for (const s of statements) {
                const parameters = s.parameters.map(denormalise);
                await trx.executeQuery(CompiledQuery.raw(s.sql, parameters));
              }
            },
          },
        ]),
      );
      const { error } = await new Migrator({
        db: replayed.db as unknown as Kysely<unknown>,
        provider: { getMigrations: async () => asShipped },
        ...MIGRATION_TABLES,
      }).migrateToLatest();
      expect(error).toBeUndefined();

      const shipped = Object.keys(released[dialect]);
      expect(await migrateToLatest(replayed.db)).toEqual(
        Object.keys(migrations).filter((name) => !shipped.includes(name)),
      );
      expect(await migrateToLatest(replayed.db)).toEqual([]);

      await migrateToLatest(fresh.db);
      const [a, b] = await Promise.all([
        readSchema(replayed.db as unknown as Kysely<unknown>, dialect),
        readSchema(fresh.db as unknown as Kysely<unknown>, dialect),
      ]);
      expect(a).toEqual(b);
      expect(Object.keys(a.tables).length).toBeGreaterThan(15);
    } finally {
      await replayed.db.destroy();
      await fresh.db.destroy();
    }
  });
});
