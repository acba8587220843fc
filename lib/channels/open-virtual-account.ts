import type { Trx } from "@/lib/db/types";

/** The transaction's virtual account whose window is still open, if any. */
export async function openVirtualAccount(trx: Trx, transactionId: string, now: number) {
  return trx
    .selectFrom("virtual_accounts")
    .selectAll()
    .where("transaction_id", "=", transactionId)
    .where("expires_at", ">", now)
    .orderBy("created_at", "desc")
    .limit(1)
    .executeTakeFirst();
}
