import { sql } from "kysely";
import { db } from "@/lib/db/client";
import { keysetPage } from "@/lib/db/keyset";
import type { Mode } from "@/lib/db/schema";
import { presentVerified } from "./present";

const UUID = /^[0-9a-f-]{36}$/;

/** What a list of transactions may be narrowed by (the console's filters; the API uses status only). */
export type TransactionFilters = {
  status?: string;
  channel?: string;
  currency?: string;
  /** Created at or after (ms since epoch). */
  from?: number;
  /** Created before (ms since epoch). */
  to?: number;
  /** A reference (exact), or part of the customer's email or name (any case). */
  search?: string;
  /** One customer's payments (its code). */
  customer?: string;
};

/** A merchant's transactions in one mode, newest first, paged by an opaque cursor. */
export async function listTransactions(
  input: {
    merchantId: string;
    mode: Mode;
    limit: number;
    cursor?: string;
  } & TransactionFilters,
) {
  let query = db()
    .selectFrom("transactions")
    .selectAll()
    .where("merchant_id", "=", input.merchantId)
    .where("mode", "=", input.mode);
  if (input.status) query = query.where("status", "=", input.status);
  if (input.channel) query = query.where("channel", "=", input.channel);
  if (input.currency) query = query.where("currency", "=", input.currency);
  if (input.customer) query = query.where("customer_id", "=", input.customer);
  if (input.from !== undefined) query = query.where("created_at", ">=", input.from);
  if (input.to !== undefined) query = query.where("created_at", "<", input.to);
  const search = input.search?.trim();
  if (search) {
    // LIKE's wildcards in what the merchant typed are matched literally.
    const pattern = `%${search.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    query = query.where((eb) =>
      eb.or([
        eb("reference", "=", search),
        eb(sql<string>`lower(${sql.ref("email")})`, "like", sql<string>`${pattern} escape '\\'`),
        eb(sql<string>`lower(${sql.ref("customer_name")})`, "like", sql<string>`${pattern} escape '\\'`),
      ]),
    );
  }
  const { page, nextCursor } = await keysetPage(query, {
    cursor: input.cursor,
    idPattern: UUID,
    limit: input.limit,
  });
  const saved = page.flatMap((t) => (t.authorization_id ? [t.authorization_id] : []));
  const authorizations = saved.length
    ? await db().selectFrom("card_authorizations").selectAll().where("id", "in", saved).execute()
    : [];
  const byId = new Map(authorizations.map((a) => [a.id, a]));
  return {
    transactions: page.map((t) =>
      presentVerified(t, t.authorization_id ? (byId.get(t.authorization_id) ?? null) : null),
    ),
    nextCursor,
  };
}
