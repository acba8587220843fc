import { database } from "./client";
import type { Trx } from "./types";

/**
 * Lock the merchant's row for the rest of the database transaction, so read-then-write changes to what a
 * merchant has one of (its active key per mode, its webhook endpoint per mode) run one after another, across
 * processes and instances. PostgreSQL: `SELECT … FOR UPDATE`; SQLite: every transaction is `BEGIN IMMEDIATE`,
 * which already holds the database's write lock.
 */
export async function lockMerchant(trx: Trx, merchantId: string): Promise<void> {
  let query = trx.selectFrom("merchants").select("id").where("id", "=", merchantId);
  if (database().dialect === "postgres") query = query.forUpdate();
  await query.executeTakeFirst();
}
