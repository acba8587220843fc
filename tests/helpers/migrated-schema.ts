import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { Kysely, type LogEvent, PostgresDialect, sql } from "kysely";
import pg from "pg";
import type { Dialect } from "@/lib/db/client";
import { ImmediateSqliteDialect } from "@/lib/db/sqlite-driver";

/**
 * Fresh, empty databases for migration tests: SQLite always, PostgreSQL when TEST_DATABASE_URL is set (a
 * database of its own per call, dropped by `cleanup`), and what the migrations made of them, read back from
 * the database's own catalogue.
 */
export type Kind = { name: Dialect; url: () => Promise<string> };

export function databaseKinds(label: string): { kinds: Kind[]; cleanup: () => Promise<void> } {
  const dir = mkdtempSync(join(tmpdir(), `paygate-${label}-`));
  const drops: Array<() => Promise<void>> = [];
  let n = 0;
  const kinds: Kind[] = [{ name: "sqlite", url: async () => `file:${join(dir, `db-${++n}.sqlite`)}` }];
  const admin = process.env.TEST_DATABASE_URL;
  if (admin) {
    kinds.push({
      name: "postgres",
      url: async () => {
        const name = `paygate_test_${Date.now()}_${process.pid}_${label}_${++n}`;
        const client = new pg.Client({ connectionString: admin });
        await client.connect();
        await client.query(`CREATE DATABASE ${name}`);
        await client.end();
        drops.push(async () => {
          const c = new pg.Client({ connectionString: admin });
          await c.connect();
          await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
          await c.end();
        });
        const url = new URL(admin);
        url.pathname = `/${name}`;
        return url.toString();
      },
    });
  }
  return {
    kinds,
    cleanup: async () => {
      for (const drop of drops) await drop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * A Kysely over `url` that tells `onQuery` every statement it runs (the same dialects as lib/db/client.ts:
 * the project's SQLite dialect, node-postgres).
 */
export function openLogged(url: string, onQuery: (event: LogEvent) => void): Kysely<unknown> {
  const log = (event: LogEvent) => {
    if (event.level === "query") onQuery(event);
  };
  if (url.startsWith("postgres")) {
    return new Kysely<unknown>({
      dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: url, max: 2 }) }),
      log,
    });
  }
  return new Kysely<unknown>({
    dialect: new ImmediateSqliteDialect(new Database(url.replace(/^file:/, ""))),
    log,
  });
}

/** A column as the database declares it: its type (lower case), whether it may hold null, whether it has a default. */
export type Column = { type: string; nullable: boolean; hasDefault: boolean };

export type MigratedSchema = {
  /** Table → column → its type and nullability. */
  tables: Record<string, Record<string, Column>>;
  /** Every index and constraint, as the database writes its definition, sorted. */
  objects: string[];
};

/** What the database holds now, from its own catalogue. */
export async function readSchema(db: Kysely<unknown>, dialect: Dialect): Promise<MigratedSchema> {
  const tables: MigratedSchema["tables"] = {};
  if (dialect === "sqlite") {
    const master = await sql<{ type: string; name: string; tbl_name: string; sql: string | null }>`
      select type, name, tbl_name, sql from sqlite_master where name not like 'sqlite_%' order by type, name`.execute(
      db,
    );
    for (const table of master.rows.filter((r) => r.type === "table")) {
      const columns = await sql<{
        name: string;
        type: string;
        notnull: number;
        pk: number;
        dflt_value: unknown;
      }>`
        select name, type, "notnull", pk, dflt_value from pragma_table_info(${table.name})`.execute(db);
      tables[table.name] = Object.fromEntries(
        // A primary key column other than an integer one may hold null in SQLite unless declared not null;
        // every key here is written by the code, never null, and PostgreSQL refuses null there.
        columns.rows.map((c) => [
          c.name,
          {
            type: c.type.toLowerCase(),
            nullable: c.notnull === 0 && c.pk === 0,
            hasDefault: c.dflt_value !== null,
          },
        ]),
      );
    }
    // Each table's and index's own definition; automatic indexes (unique, primary key) have none and are
    // implied by their table's.
    const objects = master.rows.map((r) => `${r.type} ${r.name} on ${r.tbl_name}: ${r.sql ?? "(automatic)"}`);
    return { tables, objects: objects.sort() };
  }
  const columns = await sql<{
    table_name: string;
    column_name: string;
    data_type: string;
    is_nullable: string;
    column_default: string | null;
  }>`
    select table_name, column_name, data_type, is_nullable, column_default from information_schema.columns
    where table_schema = current_schema() order by table_name, ordinal_position`.execute(db);
  for (const c of columns.rows) {
    tables[c.table_name] ??= {};
    (tables[c.table_name] as Record<string, Column>)[c.column_name] = {
      type: c.data_type.toLowerCase(),
      nullable: c.is_nullable === "YES",
      hasDefault: c.column_default !== null,
    };
  }
  const indexes = await sql<{ def: string }>`
    select indexdef as def from pg_indexes where schemaname = current_schema()`.execute(db);
  const constraints = await sql<{ def: string }>`
    select conrelid::regclass::text || ' ' || conname || ': ' || pg_get_constraintdef(oid) as def
    from pg_constraint where connamespace = current_schema()::regnamespace`.execute(db);
  return { tables, objects: [...indexes.rows, ...constraints.rows].map((r) => r.def).sort() };
}
