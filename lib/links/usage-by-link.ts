import type { Kysely } from "kysely";
import type { Database } from "@/lib/db/schema";
import { holdsPlace } from "./holds-place";

/**
 * `linkUsage` of several links in one grouped query (a page of the list): link id -> payments holding a
 * place on it. A link with none is absent from the map.
 */
export async function usageByLink(
  executor: Kysely<Database>,
  linkIds: readonly string[],
  now = Date.now(),
): Promise<Map<string, number>> {
  if (linkIds.length === 0) return new Map();
  const rows = await executor
    .selectFrom("transactions")
    .select((eb) => ["payment_link_id", eb.fn.countAll().as("n")])
    .where("payment_link_id", "in", linkIds)
    .where((eb) => holdsPlace(eb, now))
    .groupBy("payment_link_id")
    .execute();
  return new Map(rows.map((r) => [r.payment_link_id as string, Number(r.n)]));
}
