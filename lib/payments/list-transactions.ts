import { db } from "@/lib/db/client";
import type { Mode } from "@/lib/db/schema";
import { decodeCursor, encodeCursor } from "@/lib/http/cursor";
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
  if (input.cursor) {
    const { createdAt, id } = decodeCursor(input.cursor, UUID);
    query = query.where((eb) =>
      eb.or([
        eb("created_at", "<", createdAt),
        eb.and([eb("created_at", "=", createdAt), eb("id", "<", id)]),
      ]),
    );
  }
  const rows = await query
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .limit(input.limit + 1)
    .execute();
  const page = rows.slice(0, input.limit);
  const last = page.at(-1);
  return {
    transactions: page.map(presentVerified),
    nextCursor: rows.length > input.limit && last ? encodeCursor(Number(last.created_at), last.id) : null,
  };
}
