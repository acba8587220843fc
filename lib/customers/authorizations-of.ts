import type { Kysely } from "kysely";
import { db } from "@/lib/db/client";
import type { Database } from "@/lib/db/schema";
import type { AuthorizationRow } from "./authorization-status";

/** The saved cards of these customers, newest first, by customer (one query for a whole page of customers). */
export async function authorizationsOf(
  customerIds: string[],
  executor: Kysely<Database> = db(),
): Promise<Map<string, AuthorizationRow[]>> {
  const byCustomer = new Map<string, AuthorizationRow[]>(customerIds.map((id) => [id, []]));
  if (customerIds.length === 0) return byCustomer;
  const rows = await executor
    .selectFrom("card_authorizations")
    .selectAll()
    .where("customer_id", "in", customerIds)
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .execute();
  for (const row of rows) byCustomer.get(row.customer_id)?.push(row);
  return byCustomer;
}
