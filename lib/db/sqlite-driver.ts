import type BetterSqlite3 from "better-sqlite3";
import {
  CompiledQuery,
  type DatabaseConnection,
  type Driver,
  SqliteAdapter,
  SqliteDialect,
  SqliteDriver,
} from "kysely";

/**
 * Kysely's SQLite dialect over one better-sqlite3 connection, with two changes correctness needs:
 *  - every transaction starts with `BEGIN IMMEDIATE`, so read-then-write transactions take the write lock
 *    up front and another process (the worker) waits on busy_timeout instead of failing on upgrade;
 *  - migrations run in one transaction (`MigratingSqliteAdapter`, below).
 *  - prepared statements are kept by their SQL text (`statementCache`, below), so a query the service runs
 *    on every request is compiled by SQLite once per connection rather than on each call.
 * Everything else is Kysely's own driver (docs/decisions/017-custom-infrastructure.md says why the cache came
 * back after its removal).
 *
 * Serialising callers is Kysely's job: SqliteAdapter says `supportsMultipleConnections` is false, so
 * Kysely's RuntimeDriver holds a connection mutex from acquireConnection to releaseConnection, a
 * transaction holds it from BEGIN to COMMIT or ROLLBACK, and two requests' transactions never interleave.
 * That mutex belongs to one Kysely instance, hence one Kysely per dialect (createDriver refuses a second).
 *
 * A query on the plain `db()` issued inside `db().transaction()` (instead of on the transaction's executor)
 * waits for the mutex, so it never runs inside the transaction and cannot corrupt it: it runs after the
 * commit or rollback, on its own. A callback that awaits such a query therefore waits forever (a deadlock
 * rather than a half-shared transaction); pass the transaction (a `Trx`, lib/db/types.ts) instead.
 * lib/db/sqlite-driver.test.ts shows both.
 */
export class ImmediateSqliteDialect extends SqliteDialect {
  #driverCreated = false;

  constructor(private readonly database: BetterSqlite3.Database) {
    super({ database });
  }
  override createAdapter() {
    return new MigratingSqliteAdapter();
  }
  override createDriver(): Driver {
    // A second Kysely would bring a second connection mutex over the same connection.
    if (this.#driverCreated) throw new Error("ImmediateSqliteDialect serves one Kysely instance");
    this.#driverCreated = true;
    return new ImmediateSqliteDriver({ database: statementCache(this.database) });
  }
}

/**
 * SQLite's adapter, except that migrations run in one transaction, as SQLite allows DDL in transactions:
 * ours begin `IMMEDIATE`, taking the database's write lock, so two processes starting together (a cluster's
 * workers, two instances, a server and `npm run worker`) migrate one after the other, and the second finds
 * nothing left to do. Kysely's own SQLite adapter runs them outside any transaction and takes no lock.
 */
class MigratingSqliteAdapter extends SqliteAdapter {
  override get supportsTransactionalDdl(): boolean {
    return true;
  }
}

/** Kysely's SqliteDriver, beginning transactions IMMEDIATE. */
class ImmediateSqliteDriver extends SqliteDriver {
  override async beginTransaction(connection: DatabaseConnection) {
    await connection.executeQuery(CompiledQuery.raw("begin immediate"));
  }
}

/** How many distinct statements a connection keeps compiled: the service's queries are a few hundred texts. */
export const STATEMENT_CACHE_SIZE = 500;

/**
 * The connection as Kysely's driver sees it (`prepare` and `close`), with the statements it prepared kept by
 * their SQL text, the least recently used dropped past STATEMENT_CACHE_SIZE. Safe to share across calls: Kysely's
 * connection mutex runs one query at a time, each statement is run to completion (`all` or `run`, never left
 * iterating), and SQLite prepares a kept statement again by itself when the schema changes under it (a
 * migration by another process). Nothing about the data is kept, so another instance cannot make it wrong.
 */
export function statementCache(database: BetterSqlite3.Database, size = STATEMENT_CACHE_SIZE) {
  const kept = new Map<string, BetterSqlite3.Statement>();
  return {
    prepare(sql: string): BetterSqlite3.Statement {
      const statement = kept.get(sql);
      if (statement) {
        // Most recently used last: a Map iterates in insertion order.
        kept.delete(sql);
        kept.set(sql, statement);
        return statement;
      }
      const prepared = database.prepare(sql);
      kept.set(sql, prepared);
      if (kept.size > size) {
        const oldest = kept.keys().next().value;
        if (oldest !== undefined) kept.delete(oldest);
      }
      return prepared;
    },
    close() {
      kept.clear();
      database.close();
    },
  };
}
