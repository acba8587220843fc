import { type Kysely, sql } from "kysely";
import { db } from "@/lib/db/client";
import { type Database, toMinor } from "@/lib/db/schema";
import type { TransactionRow, Trx } from "@/lib/db/types";
import { log } from "@/lib/log";
import { lockTransaction } from "@/lib/payments/state-machine";
import { recordAutomaticRefund } from "@/lib/refunds/create-refund";

/**
 * Transfers of too little that are held on a virtual account while its window is open, adding up toward its
 * amount (lib/channels/receive-inbound-transfer.ts). They stay the payer's money: when the sum reaches the
 * amount they are credited with the transfer that completes it; otherwise they go back as automatic refunds
 * (reason `amount_mismatch`) as soon as they can no longer complete the payment: the window ends, the payment
 * is made another way, or the checkout ends (cancelled, failed, abandoned). Money is never left held.
 */

/**
 * The sum held on one account of a transaction, in minor units (exact when the caller holds the transaction's
 * row lock).
 */
export async function heldOnAccount(
  executor: Kysely<Database>,
  transactionId: string,
  accountNumber: string,
): Promise<bigint> {
  const rows = await executor
    .selectFrom("inbound_transfers")
    .select("amount_minor")
    .where("transaction_id", "=", transactionId)
    .where("partial", "=", "held")
    .where("account_number", "=", accountNumber)
    .execute();
  return rows.reduce((sum, r) => sum + toMinor(r.amount_minor), 0n);
}

/**
 * Refund the money held for `tx` (its row locked by the caller): all of it, or with `expiredBy` only what is
 * held on accounts whose window had ended by then. Each held transfer becomes one automatic refund of its
 * amount, recorded with it, so none is refunded twice. Clears the checkout's mismatch notice once nothing
 * is held. Returns the sum released.
 */
export async function releaseHeldTransfers(
  trx: Trx,
  tx: TransactionRow,
  { expiredBy }: { expiredBy?: number } = {},
): Promise<bigint> {
  let query = trx
    .selectFrom("inbound_transfers")
    .select(["id", "account_number", "amount_minor"])
    .where("transaction_id", "=", tx.id)
    .where("partial", "=", "held");
  if (expiredBy !== undefined) {
    query = query.where(({ eb, selectFrom }) =>
      eb(
        "account_number",
        "in",
        selectFrom("virtual_accounts")
          .select("account_number")
          .where("transaction_id", "=", tx.id)
          .where("expires_at", "<=", expiredBy),
      ),
    );
  }
  const held = await query.orderBy("received_at").orderBy("id").execute();
  if (held.length === 0) return 0n;
  const accounts = await trx
    .selectFrom("virtual_accounts")
    .select(["account_number", "currency"])
    .where("transaction_id", "=", tx.id)
    .execute();
  let released = 0n;
  for (const t of held) {
    const amountMinor = toMinor(t.amount_minor);
    await trx.updateTable("inbound_transfers").set({ partial: "refunded" }).where("id", "=", t.id).execute();
    await recordAutomaticRefund(trx, {
      tx,
      source: "bank_transfer",
      sourceId: t.id,
      amountMinor,
      currency: accounts.find((a) => a.account_number === t.account_number)?.currency ?? tx.currency,
      reason: "amount_mismatch",
    });
    released += amountMinor;
  }
  const left = await trx
    .selectFrom("inbound_transfers")
    .select("id")
    .where("transaction_id", "=", tx.id)
    .where("partial", "=", "held")
    .executeTakeFirst();
  if (!left) {
    await trx
      .updateTable("transactions")
      .set({ mismatch_expected_minor: null, mismatch_received_minor: null })
      .where("id", "=", tx.id)
      .execute();
  }
  return released;
}

/**
 * The sweep's part (lib/channels/abandon-expired.ts): refund what is held on accounts whose window has ended,
 * transaction by transaction (each locked and read again), up to `limit` of them a pass. Returns how many
 * transactions had money released.
 */
export async function releaseExpiredHolds(now = Date.now(), limit = 100): Promise<number> {
  const due = await db()
    .selectFrom("inbound_transfers as t")
    .innerJoin("virtual_accounts as va", "va.account_number", "t.account_number")
    .select("t.transaction_id")
    .distinct()
    .where(sql<boolean>`t.partial = 'held'`)
    .where("va.expires_at", "<=", now)
    .limit(limit)
    .execute();
  let released = 0;
  for (const { transaction_id: id } of due) {
    if (id === null) continue;
    try {
      const sum = await db()
        .transaction()
        .execute(async (trx) =>
          releaseHeldTransfers(trx, await lockTransaction(trx, id), { expiredBy: now }),
        );
      if (sum > 0n) released++;
    } catch (err) {
      log.error("held transfers not released", {
        transactionId: id,
        error: err instanceof Error ? err.message : String(err),
      });
    }
  }
  return released;
}
