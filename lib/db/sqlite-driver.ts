import type BetterSqlite3 from "better-sqlite3";
import {
  CompiledQuery,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type Kysely,
  type QueryResult,
  SelectQueryNode,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
} from "kysely";

/**
 * A SQLite dialect for one better-sqlite3 connection, written here rather than taken from Kysely because
 * Kysely 0.29's SqliteDriver hands the same connection to concurrent callers with no lock: two requests'
 * transactions would interleave on it. This driver
 *  - serialises access with a FIFO mutex (a transaction holds the connection from BEGIN to COMMIT),
 *  - starts every transaction with `BEGIN IMMEDIATE`, so read-then-write transactions take the write lock
 *    up front and another process (the worker) waits on busy_timeout instead of failing on upgrade,
 *  - caches prepared statements, which is most of the per-query cost in better-sqlite3,
 *  - runs a read at once (`readNow`) when the connection is free, without Kysely's driver round trip.
 */
export class LockedSqliteDialect implements Dialect {
  readonly #mutex = new Mutex();
  readonly #connection: LockedSqliteConnection;

  constructor(
    private readonly database: BetterSqlite3.Database,
    /** Runs before the connection closes (stops the checkpoint thread). */
    private readonly beforeClose?: () => Promise<void> | undefined,
  ) {
    this.#connection = new LockedSqliteConnection(database);
  }
  createAdapter() {
    return new MigratingSqliteAdapter();
  }
  createDriver(): Driver {
    return new LockedSqliteDriver(this.database, this.#mutex, this.#connection, this.beforeClose);
  }
  /**
   * The rows of a read-only statement, read synchronously, when the connection is free; `undefined` when it
   * is not (a transaction or another query holds it), and the caller goes through Kysely and waits its turn.
   * Free means no transaction is open on the connection, so the read can never see another request's
   * uncommitted writes; and since better-sqlite3 is synchronous, nothing can start one while it runs.
   * Through Kysely the same read resolves a dozen promises, each one dearer under Next's async-context hooks
   * than the query itself (see docs/benchmarks.md).
   */
  readNow<R>(compiledQuery: CompiledQuery): R[] | undefined {
    if (this.#mutex.locked) return undefined;
    return this.#connection.readRows<R>(compiledQuery);
  }
  createIntrospector(db: Kysely<unknown>) {
    return new SqliteIntrospector(db);
  }
  createQueryCompiler() {
    return new SqliteQueryCompiler();
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

/** How long a caller waits for the connection before failing loudly instead of hanging (a deadlock guard). */
const LOCK_WAIT_MS = 15_000;

class Mutex {
  #locked = false;
  readonly #waiters: Array<() => void> = [];

  get locked(): boolean {
    return this.#locked;
  }

  /** Resolves with a release function once the caller holds the lock (FIFO; immediate when free). */
  lock(): Promise<() => void> {
    if (!this.#locked) {
      this.#locked = true;
      return Promise.resolve(this.#releaser());
    }
    return new Promise((resolve, reject) => {
      let timedOut = false;
      const waiter = () => {
        clearTimeout(timer);
        // A caller that gave up still gets its turn in the queue; hand it straight on.
        if (timedOut) this.#releaser()();
        else resolve(this.#releaser());
      };
      const timer = setTimeout(() => {
        timedOut = true;
        reject(
          new Error(
            `SQLite connection not free after ${LOCK_WAIT_MS} ms: a query ran beside an open transaction on the same connection (use the transaction's executor)`,
          ),
        );
      }, LOCK_WAIT_MS);
      this.#waiters.push(waiter);
    });
  }

  #releaser(): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.#waiters.shift();
      if (next) next();
      else this.#locked = false;
    };
  }
}

const STATEMENT_CACHE_SIZE = 500;

class LockedSqliteConnection implements DatabaseConnection {
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

  /** Rows of a statement that only reads; anything else is refused (it must go through the lock). */
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

class LockedSqliteDriver implements Driver {
  #release: (() => void) | undefined;

  constructor(
    private readonly db: BetterSqlite3.Database,
    private readonly mutex: Mutex,
    private readonly connection: LockedSqliteConnection,
    private readonly beforeClose?: () => Promise<void> | undefined,
  ) {}
  async init() {}
  async acquireConnection(): Promise<DatabaseConnection> {
    this.#release = await this.mutex.lock();
    return this.connection;
  }
  async beginTransaction(connection: DatabaseConnection) {
    await connection.executeQuery(CompiledQuery.raw("begin immediate"));
  }
  async commitTransaction(connection: DatabaseConnection) {
    await connection.executeQuery(CompiledQuery.raw("commit"));
  }
  async rollbackTransaction(connection: DatabaseConnection) {
    await connection.executeQuery(CompiledQuery.raw("rollback"));
  }
  async releaseConnection() {
    const release = this.#release;
    this.#release = undefined;
    release?.();
  }
  async destroy() {
    await this.beforeClose?.();
    this.db.close();
  }
}
