import { db } from "@/lib/db/client";
import type { Mode } from "@/lib/db/schema";
import { AppError } from "@/lib/http/errors";
import { presentVerified } from "./present";

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
    const [createdAt, id] = decodeCursor(input.cursor);
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

function encodeCursor(createdAt: number, id: string): string {
  return Buffer.from(`${createdAt}:${id}`).toString("base64url");
}

function decodeCursor(cursor: string): [number, string] {
  const match = /^(\d{1,16}):([0-9a-f-]{36})$/.exec(Buffer.from(cursor, "base64url").toString());
  if (!match)
    throw new AppError("validation_error", "cursor must be a nextCursor value from a previous page.");
  return [Number(match[1]), match[2] as string];
}
