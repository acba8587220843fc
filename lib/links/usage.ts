import type { Kysely } from "kysely";
import type { Database } from "@/lib/db/schema";

/**
 * How many payments hold a place on a link: paid ones, and ones still open (not finished, checkout not
 * expired; a checkout lives at least as long as its bank transfer window, so money that may still arrive
 * keeps its place). Abandoned and failed ones give their place back, so a usage limit counts real payments.
 */
export async function linkUsage(
  executor: Kysely<Database>,
  linkId: string,
  now = Date.now(),
): Promise<number> {
  const row = await executor
    .selectFrom("transactions")
    .select((eb) => eb.fn.countAll().as("n"))
    .where("payment_link_id", "=", linkId)
    .where((eb) =>
      eb.or([
        eb("status", "=", "success"),
        eb.and([eb("status", "not in", ["failed", "abandoned"]), eb("access_expires_at", ">", now)]),
      ]),
    )
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}
