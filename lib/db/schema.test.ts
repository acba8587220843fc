import { fileURLToPath } from "node:url";
import type { Kysely } from "kysely";
import { API, type Type } from "typescript/unstable/sync";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { databaseKinds, type MigratedSchema, readSchema } from "@/tests/helpers/migrated-schema";
import { openDatabase } from "./client";
import { migrateToLatest } from "./migrate";

/**
 * lib/db/schema.ts (the table types every query is checked against) against the schema the migrations
 * actually make, on SQLite and on PostgreSQL when TEST_DATABASE_URL is set: every table and column of the
 * types exists in the migrated database with a compatible type and the same nullability, and every table and
 * column of the migrated database is in the types, but for the exceptions below.
 *
 * The types are read with the TypeScript compiler's own checker (typescript 7's API, `typescript/unstable/sync`,
 * pinned with the compiler), so aliases (`Int`, `Mode`) and Kysely's `Generated<>` are resolved as the
 * compiler resolves them.
 */

/** Tables in the database that the types leave out on purpose. */
const NOT_IN_TYPES: Record<string, string> = {
  schema_migrations: "Kysely's Migrator's own record of the migrations run (lib/db/migrate.ts)",
  schema_migrations_lock: "Kysely's Migrator's lock",
  rate_limits:
    "PostgreSQL only (migration 0008): rate-limiter-flexible's own table, read and written by that library (lib/security/rate-limit-store.ts), never through Kysely",
};

/** What a column's select type is, as far as the database is concerned. */
type Declared = {
  /** "string": only strings; "number": only numbers; "int": `Int` (number | string | bigint); else "other". */
  kind: "string" | "number" | "int" | "other";
  nullable: boolean;
  /** Kysely's `Generated<>`: inserts may leave it out, so the database must have a default. */
  generated: boolean;
  text: string;
};

const ROOT = fileURLToPath(new URL("../..", import.meta.url));

/** Table → column → its declared type, read from `Database` in lib/db/schema.ts. */
function declaredSchema(): Record<string, Record<string, Declared>> {
  const api = new API({ cwd: ROOT });
  try {
    const snapshot = api.updateSnapshot({ openProject: `${ROOT}tsconfig.json` });
    const project = snapshot.getProjects()[0];
    if (!project) throw new Error("no TypeScript project in tsconfig.json");
    const file = project.program.getSourceFile(`${ROOT}lib/db/schema.ts`);
    if (!file) throw new Error("lib/db/schema.ts is not in the project");
    const checker = project.checker;
    const database = checker.resolveName("Database", 788968 /* SymbolFlags.Type */, file, false);
    if (!database) throw new Error("lib/db/schema.ts declares no Database");
    const assignable = (a: Type, b: Type) => checker.isTypeAssignableTo(a, b);
    const [str, num, big, nul] = [
      checker.getStringType(),
      checker.getNumberType(),
      checker.getBigIntType(),
      checker.getNullType(),
    ];
    const out: Record<string, Record<string, Declared>> = {};
    for (const table of checker.getPropertiesOfType(checker.getDeclaredTypeOfSymbol(database))) {
      const row = checker.getTypeOfSymbol(table);
      if (!row) throw new Error(`no type for ${table.name}`);
      out[table.name] = {};
      for (const column of checker.getPropertiesOfType(row)) {
        let type = checker.getTypeOfSymbol(column);
        if (!type) throw new Error(`no type for ${table.name}.${column.name}`);
        const text = checker.typeToString(type);
        // Generated<T> is ColumnType<T, T | undefined, T>: what a select reads is its __select__.
        const select = checker.getPropertyOfType(type, "__select__");
        const generated = select !== undefined;
        if (select) type = checker.getTypeOfSymbol(select) ?? type;
        const nullable = assignable(nul, type);
        const value = checker.getNonNullableType(type) ?? type;
        const kind = assignable(value, str)
          ? "string"
          : assignable(value, num)
            ? "number"
            : assignable(str, value) && assignable(num, value) && assignable(big, value)
              ? "int"
              : "other";
        (out[table.name] as Record<string, Declared>)[column.name] = { kind, nullable, generated, text };
      }
    }
    return out;
  } finally {
    api.close();
  }
}

/**
 * Whether a column's declared type reads what the database returns: text as strings; integer (int4) as
 * numbers on both databases; bigint (int8) as numbers on SQLite but strings on PostgreSQL, so only `Int`.
 */
function compatible(databaseType: string, kind: Declared["kind"]): boolean {
  if (databaseType === "text" || databaseType.startsWith("varchar") || databaseType === "character varying")
    return kind === "string";
  if (databaseType === "integer") return kind === "number" || kind === "int";
  if (databaseType === "bigint") return kind === "int";
  return false;
}

/** Every disagreement between the types and the migrated database, one line each. */
function differences(declared: ReturnType<typeof declaredSchema>, actual: MigratedSchema): string[] {
  const found: string[] = [];
  for (const [table, columns] of Object.entries(declared)) {
    const real = actual.tables[table];
    if (!real) {
      found.push(`${table}: in lib/db/schema.ts, not in the database`);
      continue;
    }
    for (const [name, column] of Object.entries(columns)) {
      const c = real[name];
      if (!c) found.push(`${table}.${name}: in lib/db/schema.ts, not in the database`);
      else {
        if (!compatible(c.type, column.kind))
          found.push(`${table}.${name}: the database's ${c.type} cannot be read as ${column.text}`);
        if (c.nullable !== column.nullable)
          found.push(
            `${table}.${name}: ${c.nullable ? "nullable" : "not null"} in the database, ${column.text} in lib/db/schema.ts`,
          );
        if (column.generated && !c.hasDefault)
          found.push(`${table}.${name}: Generated<> in lib/db/schema.ts but no default in the database`);
      }
    }
    for (const name of Object.keys(real))
      if (!(name in columns)) found.push(`${table}.${name}: in the database, not in lib/db/schema.ts`);
  }
  for (const table of Object.keys(actual.tables))
    if (!(table in declared) && !(table in NOT_IN_TYPES))
      found.push(`${table}: in the database, not in lib/db/schema.ts`);
  return found;
}

const { kinds, cleanup } = databaseKinds("schema");
let declared: ReturnType<typeof declaredSchema>;

beforeAll(() => {
  declared = declaredSchema();
}, 60_000);
afterAll(cleanup);

describe("the table types are read", () => {
  it("finds every table of lib/db/schema.ts and classifies its columns", () => {
    expect(Object.keys(declared).length).toBeGreaterThanOrEqual(20);
    expect(declared.merchants?.id).toMatchObject({ kind: "string", nullable: false, generated: false });
    expect(declared.merchants?.fee_schedule).toMatchObject({ kind: "string", nullable: true });
    expect(declared.merchants?.merchant_bears_cost).toMatchObject({ kind: "number", nullable: false });
    expect(declared.api_keys?.mode).toMatchObject({ kind: "string", nullable: false }); // Mode: "test" | "live"
    expect(declared.api_keys?.revoked_at).toMatchObject({ kind: "int", nullable: true });
    expect(declared.transactions?.amount_refunded_minor).toMatchObject({
      kind: "int",
      nullable: false,
      generated: true,
    });
  });

  it("names each kind of disagreement", () => {
    const actual: MigratedSchema = {
      objects: [],
      tables: {
        t: {
          a: { type: "bigint", nullable: false, hasDefault: false },
          b: { type: "text", nullable: true, hasDefault: false },
          c: { type: "bigint", nullable: false, hasDefault: false },
          extra: { type: "text", nullable: true, hasDefault: false },
        },
        schema_migrations: {},
        stray: {},
      },
    };
    const types: ReturnType<typeof declaredSchema> = {
      t: {
        a: { kind: "number", nullable: false, generated: false, text: "number" },
        b: { kind: "string", nullable: false, generated: false, text: "string" },
        c: { kind: "int", nullable: false, generated: true, text: "Generated<Int>" },
        gone: { kind: "string", nullable: false, generated: false, text: "string" },
      },
      missing: {},
    };
    expect(differences(types, actual)).toEqual([
      "t.a: the database's bigint cannot be read as number",
      "t.b: nullable in the database, string in lib/db/schema.ts",
      "t.c: Generated<> in lib/db/schema.ts but no default in the database",
      "t.gone: in lib/db/schema.ts, not in the database",
      "t.extra: in the database, not in lib/db/schema.ts",
      "missing: in lib/db/schema.ts, not in the database",
      "stray: in the database, not in lib/db/schema.ts",
    ]);
  });
});

describe.each(kinds)("lib/db/schema.ts against the migrated $name database", (kind) => {
  it("agrees on every table and column: type, nullability, defaults", async () => {
    const handle = openDatabase(await kind.url());
    try {
      await migrateToLatest(handle.db);
      const actual = await readSchema(handle.db as unknown as Kysely<unknown>, kind.name);
      expect(differences(declared, actual)).toEqual([]);
      // The exceptions are real: each is in this database, or is PostgreSQL's alone.
      for (const table of Object.keys(NOT_IN_TYPES))
        if (table !== "rate_limits" || kind.name === "postgres")
          expect(Object.keys(actual.tables)).toContain(table);
    } finally {
      await handle.db.destroy();
    }
  });
});
