import { sql } from "kysely";
import { db } from "@/lib/db/client";
import { keysetPage } from "@/lib/db/keyset";
import type { Mode } from "@/lib/db/schema";
import { authorizationsOf } from "./authorizations-of";
import { CUSTOMER_CODE } from "./codes";
import { emailKey } from "./email-key";
import { presentCustomer } from "./present";

/**
 * GET /customers: the merchant's customers in one mode, newest first, paged by the keyset cursor every list
 * uses (lib/db/keyset.ts). `email` finds one customer (compared without regard to case); `emailContains`
 * (the console's search) those whose email contains it.
 */
export async function listCustomers(input: {
  merchantId: string;
  mode: Mode;
  limit: number;
  email?: string;
  emailContains?: string;
  cursor?: string;
}) {
  let query = db()
    .selectFrom("customers")
    .selectAll()
    .where("merchant_id", "=", input.merchantId)
    .where("mode", "=", input.mode);
  if (input.email) query = query.where("email_key", "=", emailKey(input.email));
  if (input.emailContains) {
    // LIKE's own wildcards in what was typed match themselves.
    const escaped = emailKey(input.emailContains).replace(/[\\%_]/g, (c) => `\\${c}`);
    query = query.where(sql<boolean>`email_key like ${`%${escaped}%`} escape '\\'`);
  }
  const { page, nextCursor } = await keysetPage(query, {
    cursor: input.cursor,
    idPattern: CUSTOMER_CODE,
    limit: input.limit,
  });
  const cards = await authorizationsOf(page.map((c) => c.id));
  return { customers: page.map((c) => presentCustomer(c, cards.get(c.id) ?? [])), nextCursor };
}
