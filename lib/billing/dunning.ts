import type { Kysely } from "kysely";
import type { Database } from "@/lib/db/schema";

/** The days after a renewal fails on which it is tried again, unless the merchant sets its own. */
export const DEFAULT_DUNNING_DAYS = [1, 3, 5] as const;
export const MAX_DUNNING_DAYS = 5;

const DAY_MS = 86_400_000;

/** A merchant's retry days (PUT /v1/merchants/settings `dunningDays`), ascending. */
export async function dunningDaysOf(executor: Kysely<Database>, merchantId: string): Promise<number[]> {
  const row = await executor
    .selectFrom("merchants")
    .select("dunning_days")
    .where("id", "=", merchantId)
    .executeTakeFirst();
  if (!row?.dunning_days) return [...DEFAULT_DUNNING_DAYS];
  const days = JSON.parse(row.dunning_days) as number[];
  return days.length > 0 ? days : [...DEFAULT_DUNNING_DAYS];
}

/**
 * When an invoice whose charge just failed is tried next, on the subscription's clock: the first retry day
 * (counted from the invoice's due time) still ahead of `now`, or null when the last has passed and the
 * subscription ends. Counting from the due time, not from the failure, keeps the schedule whatever extra
 * charges came between (a customer's new card is charged at once, off the schedule).
 */
export function nextRetryAt(dueAt: number, days: readonly number[], now: number): number | null {
  for (const day of days) {
    const at = dueAt + day * DAY_MS;
    if (at > now) return at;
  }
  return null;
}
