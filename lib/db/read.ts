import type { CompiledQuery } from "kysely";
import { type Db, database } from "./client";

/**
 * A read's rows. On the process's SQLite database, when no transaction or other query holds the connection,
 * the statement runs at once (CachedSqliteDialect.readNow) instead of through Kysely's driver, whose dozen
 * promises cost more under Next's async-context hooks than the read itself. Otherwise (a transaction's
 * executor, a busy connection, PostgreSQL) it runs through `executor` as usual and waits its turn, so a read
 * never sees past an open transaction.
 */
export async function readRows<O>(query: CompiledQuery<O>, executor: Db = database().db): Promise<O[]> {
  const handle = database();
  const rows = executor === handle.db ? handle.readNow?.<O>(query) : undefined;
  return rows ?? (await executor.executeQuery(query)).rows;
}

/** The first row of `readRows`, or undefined (written out rather than awaiting readRows: one promise fewer). */
export async function readFirst<O>(
  query: CompiledQuery<O>,
  executor: Db = database().db,
): Promise<O | undefined> {
  const handle = database();
  const rows = executor === handle.db ? handle.readNow?.<O>(query) : undefined;
  return (rows ?? (await executor.executeQuery(query)).rows)[0];
}
