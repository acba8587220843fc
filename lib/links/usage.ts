import type { Kysely } from "kysely";
import type { Database } from "@/lib/db/schema";
import { holdsPlace, takesPlace } from "./holds-place";

/** How many payments hold a place on a link (lib/links/holds-place.ts says which do). */
export async function linkUsage(
  executor: Kysely<Database>,
  linkId: string,
  now = Date.now(),
): Promise<number> {
  const row = await executor
    .selectFrom("transactions")
    .select((eb) => eb.fn.countAll().as("n"))
    .where("payment_link_id", "=", linkId)
    .where((eb) => holdsPlace(eb, now))
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/**
 * How many payments take a place on a link for good: those holding one but the idle holds of checkouts nobody
 * is paying for, whose places a paying customer is handed. What decides whether the link is used up.
 */
export async function linkTaken(
  executor: Kysely<Database>,
  linkId: string,
  now = Date.now(),
): Promise<number> {
  const row = await executor
    .selectFrom("transactions")
    .select((eb) => eb.fn.countAll().as("n"))
    .where("payment_link_id", "=", linkId)
    .where((eb) => takesPlace(eb, now))
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}
