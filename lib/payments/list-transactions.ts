import { db } from "@/lib/db/client";
import { keysetPage } from "@/lib/db/keyset";
import type { Mode } from "@/lib/db/schema";
import { presentVerified } from "./present";

const UUID = /^[0-9a-f-]{36}$/;

/** A merchant's transactions in one mode, newest first, paged by an opaque cursor. */
export async function listTransactions(input: {
  merchantId: string;
  mode: Mode;
  limit: number;
  status?: string;
  cursor?: string;
}) {
  let query = db()
    .selectFrom("transactions")
    .selectAll()
    .where("merchant_id", "=", input.merchantId)
    .where("mode", "=", input.mode);
  if (input.status) query = query.where("status", "=", input.status);
  const { page, nextCursor } = await keysetPage(query, {
    cursor: input.cursor,
    idPattern: UUID,
    limit: input.limit,
  });
  return { transactions: page.map(presentVerified), nextCursor };
}
