import { type Compilable, type CompiledQuery, createQueryId, type Insertable, type Kysely } from "kysely";
import { disabled } from "@/lib/env";
import type { Database } from "./schema";

type Params = Record<string, unknown>;

/** `param(name)`: the stand-in for `params[name]` while a prepared query is built (see `prepared`). */
export type Param<P extends Params> = <K extends keyof P & string>(name: K) => P[K];

/** Where a compiled statement's parameters come from: a named input, or a value fixed at build time. */
type Slot = { name: string } | { value: unknown };

type Template<O> = { query: CompiledQuery<O>; slots: Slot[] };

const MARK = "\u0000prepared:";

/** Compile `build` once with a stand-in for each named parameter, and note where each one landed. */
function template<O>(build: (param: (name: string) => string) => Compilable<O>): Template<O> {
  const names = new Set<string>();
  const query = build((name) => {
    names.add(name);
    return `${MARK}${name}`;
  }).compile();
  const seen = new Set<string>();
  const slots = query.parameters.map((value): Slot => {
    if (typeof value === "string" && value.startsWith(MARK)) {
      const name = value.slice(MARK.length);
      seen.add(name);
      return { name };
    }
    if (typeof value === "string" && value.includes(MARK)) {
      throw new Error(`prepared query: a parameter stand-in was used inside a value (${query.sql})`);
    }
    return { value };
  });
  const lost = [...names].filter((n) => !seen.has(n));
  if (lost.length > 0) {
    throw new Error(`prepared query: parameter(s) ${lost.join(", ")} did not reach the SQL (${query.sql})`);
  }
  return { query, slots };
}

/** The template's compiled query with `params` in its parameter slots. */
function fill<O>({ query, slots }: Template<O>, params: Params): CompiledQuery<O> {
  const parameters = slots.map((slot) => {
    if (!("name" in slot)) return slot.value;
    const value = params[slot.name];
    if (value === undefined) throw new Error(`prepared query: no value for parameter ${slot.name}`);
    return value;
  });
  // A query id of its own per run, as a freshly compiled query has (plugins key per-query state on it).
  return { ...query, queryId: createQueryId(), parameters };
}

/**
 * A Kysely query built and compiled once per database and then run with new parameter values: the SQL text
 * and its operation tree are kept, and each call only fills in the parameter array. For the hot paths
 * (secret key lookup, verify, initialize's insert), where building and compiling the query cost more than
 * SQLite takes to run it. Run the result with `readRows`/`readFirst` (lib/db/read.ts) or `db.executeQuery`.
 *
 * `build` receives the database and `param(name)` (typed `Param<{ name: type }>`, which gives the call's
 * parameter object its type), a stand-in for the value of `params[name]`. It must use each stand-in as a
 * whole value (`where("id", "=", param("id"))`), never inside a string or an expression that reads it: the
 * stand-ins are found again among the compiled parameters, and a build that loses or alters one fails
 * loudly on first use rather than running with a wrong value.
 */
export function prepared<P extends Params, O>(
  build: (db: Kysely<Database>, param: Param<P>) => Compilable<O>,
): (db: Kysely<Database>, params: P) => CompiledQuery<O> {
  // One compilation per database handle: SQLite and PostgreSQL write different SQL.
  const cache = new WeakMap<Kysely<Database>, Template<O>>();
  return (db, params) => {
    if (disabled("prepared")) return build(db, ((name: string) => params[name]) as Param<P>).compile();
    let compiled = cache.get(db);
    if (!compiled) {
      compiled = template((param) => build(db, param as Param<P>));
      cache.set(db, compiled);
    }
    return fill(compiled, params);
  };
}

const inserts = new WeakMap<Kysely<Database>, Map<string, Template<unknown>>>();

/**
 * `insert into <table>` of one row, compiled once per database, table and set of columns (the row's keys,
 * in order) and then only refilled: the prepared form of `db.insertInto(table).values(row)`.
 */
export function insertRow<T extends keyof Database & string>(
  db: Kysely<Database>,
  table: T,
  row: Insertable<Database[T]>,
): CompiledQuery<unknown> {
  if (disabled("prepared")) return db.insertInto(table).values(row).compile();
  let byShape = inserts.get(db);
  if (!byShape) {
    byShape = new Map();
    inserts.set(db, byShape);
  }
  const columns = Object.keys(row);
  const shape = `${table}(${columns.join(",")})`;
  let compiled = byShape.get(shape);
  if (!compiled) {
    compiled = template((param) =>
      db
        .insertInto(table)
        .values(Object.fromEntries(columns.map((c) => [c, param(c)])) as Insertable<Database[T]>),
    );
    byShape.set(shape, compiled);
  }
  return fill(compiled, row as Params);
}
