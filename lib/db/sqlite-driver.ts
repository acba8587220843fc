import type BetterSqlite3 from "better-sqlite3";
import {
  CompiledQuery,
  type DatabaseConnection,
  type Driver,
  type QueryResult,
  SelectQueryNode,
  SqliteAdapter,
  SqliteDialect,
  SqliteDriver,
} from "kysely";

/**
 * Kysely's SQLite dialect over one better-sqlite3 connection, with two changes:
 *  - every transaction starts with `BEGIN IMMEDIATE`, so read-then-write transactions take the write lock
 *    up front and another process (the worker) waits on busy_timeout instead of failing on upgrade;
 *  - prepared statements are cached, which is most of the per-query cost in better-sqlite3.
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
export class CachedSqliteDialect extends SqliteDialect {
  readonly #connection: CachedSqliteConnection;
  #driver: CachedSqliteDriver | undefined;

  constructor(
    private readonly database: BetterSqlite3.Database,
    /** Runs before the connection closes (stops the checkpoint thread). */
    private readonly beforeClose?: () => Promise<void> | undefined,
  ) {
    super({ database });
    this.#connection = new CachedSqliteConnection(database);
  }
  override createAdapter() {
    return new MigratingSqliteAdapter();
  }
  override createDriver(): Driver {
    // A second Kysely would bring a second connection mutex over the same connection.
    if (this.#driver) throw new Error("CachedSqliteDialect serves one Kysely instance");
    this.#driver = new CachedSqliteDriver(this.database, this.#connection, this.beforeClose);
    return this.#driver;
  }
}

/**
 * Kysely's own SQLite dialect with only the two changes correctness needs (`BEGIN IMMEDIATE` transactions and
 * transactional migrations): no statement cache. What `PAYGATE_DISABLE=driver` runs, to
 * measure what the caching driver is worth (docs/decisions/017-custom-infrastructure.md).
 */
export class ImmediateSqliteDialect extends SqliteDialect {
  constructor(
    private readonly database: BetterSqlite3.Database,
    private readonly beforeClose?: () => Promise<void> | undefined,
  ) {
    super({ database });
  }
  override createAdapter() {
    return new MigratingSqliteAdapter();
  }
  override createDriver(): Driver {
    const beforeClose = this.beforeClose;
    return new (class extends SqliteDriver {
      override async beginTransaction(connection: DatabaseConnection) {
        await connection.executeQuery(CompiledQuery.raw("begin immediate"));
      }
      override async destroy() {
        await beforeClose?.();
        await super.destroy();
      }
    })({ database: this.database });
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

const STATEMENT_CACHE_SIZE = 500;

/** Kysely's SqliteConnection, with prepared statements cached by SQL text (least recently added out). */
class CachedSqliteConnection implements DatabaseConnection {
  readonly #statements = new Map<string, BetterSqlite3.Statement>();
  constructor(private readonly db: BetterSqlite3.Database) {}

  #prepare(sql: string): BetterSqlite3.Statement {
    let stmt = this.#statements.get(sql);
    if (!stmt) {
      stmt = this.db.prepare(sql);
      if (this.#statements.size >= STATEMENT_CACHE_SIZE) {
        const oldest = this.#statements.keys().next().value;
        if (oldest !== undefined) this.#statements.delete(oldest);
      }
      this.#statements.set(sql, stmt);
    }
    return stmt;
  }

  async executeQuery<R>(compiledQuery: CompiledQuery): Promise<QueryResult<R>> {
    const stmt = this.#prepare(compiledQuery.sql);
    const parameters = compiledQuery.parameters as unknown[];
    if (stmt.reader) return { rows: stmt.all(parameters) as R[] };
    const { changes, lastInsertRowid } = stmt.run(parameters);
    return { numAffectedRows: BigInt(changes), insertId: BigInt(lastInsertRowid), rows: [] };
  }

  async *streamQuery<R>(compiledQuery: CompiledQuery): AsyncIterableIterator<QueryResult<R>> {
    if (!SelectQueryNode.is(compiledQuery.query)) throw new Error("SQLite can only stream select queries");
    const stmt = this.#prepare(compiledQuery.sql);
    for (const row of stmt.iterate(compiledQuery.parameters as unknown[])) yield { rows: [row as R] };
  }
}

/** Kysely's SqliteDriver handing out the caching connection and beginning transactions IMMEDIATE. */
class CachedSqliteDriver extends SqliteDriver {
  constructor(
    database: BetterSqlite3.Database,
    private readonly connection: CachedSqliteConnection,
    private readonly beforeClose?: () => Promise<void> | undefined,
  ) {
    super({ database });
  }
  override async acquireConnection(): Promise<DatabaseConnection> {
    return this.connection;
  }
  override async beginTransaction(connection: DatabaseConnection) {
    await connection.executeQuery(CompiledQuery.raw("begin immediate"));
  }
  override async destroy() {
    await this.beforeClose?.();
    await super.destroy();
  }
}
