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
 * Kysely's SQLite dialect over one better-sqlite3 connection, with three changes:
 *  - every transaction starts with `BEGIN IMMEDIATE`, so read-then-write transactions take the write lock
 *    up front and another process (the worker) waits on busy_timeout instead of failing on upgrade;
 *  - prepared statements are cached, which is most of the per-query cost in better-sqlite3;
 *  - `readNow` runs a read at once when the connection is free, without Kysely's driver round trip.
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
  /**
   * The rows of a read-only statement, read synchronously, when the connection is free; `undefined` when it
   * is not (a transaction or another query holds it), and the caller goes through Kysely and waits its turn.
   * Free means no caller holds the connection and no transaction is open on it, so the read can never see
   * another request's uncommitted writes; and since better-sqlite3 is synchronous, nothing can start one
   * while it runs. Through Kysely the same read resolves a dozen promises, each one dearer under Next's
   * async-context hooks than the query itself (see docs/benchmarks.md).
   */
  readNow<R>(compiledQuery: CompiledQuery): R[] | undefined {
    if (this.#driver?.held || this.database.inTransaction) return undefined;
    return this.#connection.readRows<R>(compiledQuery);
  }
}

/**
 * Kysely's own SQLite dialect with only the two changes correctness needs (`BEGIN IMMEDIATE` transactions and
 * transactional migrations): no statement cache, no `readNow`. What `PAYGATE_DISABLE=driver` runs, to
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

  /** Rows of a statement that only reads; anything else is refused (it must go through Kysely's mutex). */
  readRows<R>(compiledQuery: CompiledQuery): R[] {
    const stmt = this.#prepare(compiledQuery.sql);
    if (!stmt.reader || !stmt.readonly) throw new Error("readNow takes read-only statements only");
    return stmt.all(compiledQuery.parameters as unknown[]) as R[];
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

/**
 * Kysely's SqliteDriver handing out the caching connection, beginning transactions IMMEDIATE, and noting
 * whether a caller holds the connection (Kysely's mutex admits one at a time, so a flag is enough).
 */
class CachedSqliteDriver extends SqliteDriver {
  #held = false;

  constructor(
    database: BetterSqlite3.Database,
    private readonly connection: CachedSqliteConnection,
    private readonly beforeClose?: () => Promise<void> | undefined,
  ) {
    super({ database });
  }
  /** True from acquireConnection to releaseConnection: a query or a transaction is using the connection. */
  get held(): boolean {
    return this.#held;
  }
  override async acquireConnection(): Promise<DatabaseConnection> {
    this.#held = true;
    return this.connection;
  }
  override async beginTransaction(connection: DatabaseConnection) {
    await connection.executeQuery(CompiledQuery.raw("begin immediate"));
  }
  override async releaseConnection() {
    this.#held = false;
  }
  override async destroy() {
    await this.beforeClose?.();
    await super.destroy();
  }
}
