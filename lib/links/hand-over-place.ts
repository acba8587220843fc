import { AppError } from "@/lib/core/errors";
import { database } from "@/lib/db/client";
import { toMillis } from "@/lib/db/schema";
import type { TransactionRow, Trx } from "@/lib/db/types";
import { env } from "@/lib/env";
import { log } from "@/lib/log";
import { holdsPlace, idleHold } from "./holds-place";

/**
 * A payment starts on a checkout of a usage-limited link that holds no place (it started without one, its
 * short hold lapsed, or its place was handed to someone else): it takes a place now, or nothing is charged.
 * Under the link row's lock (FOR UPDATE on PostgreSQL; SQLite's writes are one at a time), so that two
 * customers, on any instances, never both take the last place:
 *  - its client address may be paying for, or holding, no more than PAYMENT_LINK_PLACES_PER_ADDRESS unpaid
 *    places of the link (429 `rate_limited` beyond, with `Retry-After`);
 *  - a free place is taken;
 *  - else the place of a checkout nobody is paying for (lib/links/holds-place.ts `idleHold`, the one whose
 *    hold ends first) is handed over: its hold ends now, by a compare-and-set on that checkout's own row
 *    (locked, skipping one being locked right now: its customer is starting to pay), so a payment that
 *    started on it meanwhile keeps it;
 *  - else 409 `payment_link_unavailable`.
 */
export async function takeLinkPlace(trx: Trx, tx: TransactionRow, now: number): Promise<void> {
  const linkId = tx.payment_link_id;
  if (linkId === null) return;
  const postgres = database().dialect === "postgres";
  let query = trx.selectFrom("payment_links").select(["usage_limit"]).where("id", "=", linkId);
  if (postgres) query = query.forUpdate();
  const link = await query.executeTakeFirst();
  if (!link || link.usage_limit === null) return;

  if (tx.link_holder !== null) {
    const mine = await trx
      .selectFrom("transactions")
      .select(["status", "access_expires_at", "link_place_until"])
      .where("payment_link_id", "=", linkId)
      .where("link_holder", "=", tx.link_holder)
      .where("id", "!=", tx.id)
      .where("status", "!=", "success")
      .where((eb) => holdsPlace(eb, now))
      .execute();
    if (mine.length >= env().PAYMENT_LINK_PLACES_PER_ADDRESS) {
      const lapses = Math.min(
        ...mine.map((t) =>
          t.status === "pending" && t.link_place_until !== null
            ? toMillis(t.link_place_until)
            : toMillis(t.access_expires_at),
        ),
      );
      throw new AppError(
        "rate_limited",
        "This address already holds an unpaid place on this payment link; pay for or cancel that checkout first. Nothing was charged.",
        { "retry-after": String(Math.max(1, Math.ceil((lapses - now) / 1000))) },
      );
    }
  }

  const others = await trx
    .selectFrom("transactions")
    .select((eb) => eb.fn.countAll().as("n"))
    .where("payment_link_id", "=", linkId)
    .where("id", "!=", tx.id)
    .where((eb) => holdsPlace(eb, now))
    .executeTakeFirst();
  if (Number(others?.n ?? 0) < link.usage_limit) return;

  let idle = trx
    .selectFrom("transactions")
    .select(["id", "link_place_until"])
    .where("payment_link_id", "=", linkId)
    .where("id", "!=", tx.id)
    .where((eb) => idleHold(eb, now))
    .orderBy("link_place_until", "asc")
    .limit(5);
  if (postgres) idle = idle.forUpdate().skipLocked();
  for (const candidate of await idle.execute()) {
    if (candidate.link_place_until === null) continue;
    const handed = await trx
      .updateTable("transactions")
      .set({ link_place_until: now })
      .where("id", "=", candidate.id)
      .where("status", "=", "pending")
      .where("link_payment_started_at", "is", null)
      .where("link_place_until", "=", candidate.link_place_until)
      .executeTakeFirst();
    if (Number(handed.numUpdatedRows) === 1) {
      log.info("payment link place handed over", { linkId, from: candidate.id, to: tx.id });
      return;
    }
  }
  throw new AppError(
    "payment_link_unavailable",
    "This payment link has reached its limit of payments; nothing was charged.",
  );
}
