import type { Selectable, Transaction } from "kysely";
import type { Database, TransactionsTable } from "./schema";

/**
 * An open database transaction. Code that must run inside one (a state change and its outbox rows, a row
 * lock) takes a `Trx`, so the type system refuses the plain `db()`: a Kysely<Database> is not a Transaction.
 */
export type Trx = Transaction<Database>;

/** A row of the `transactions` table (a payment), as read. */
export type TransactionRow = Selectable<TransactionsTable>;
