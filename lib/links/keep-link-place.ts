import { AppError } from "@/lib/core/errors";
import { database } from "@/lib/db/client";
import { toMillis } from "@/lib/db/schema";
import type { TransactionRow, Trx } from "@/lib/db/types";
import { env } from "@/lib/env";
import { holdsPlace, rowHoldsPlace } from "./holds-place";

/**
 * A charge is starting on a checkout of a usage-limited payment link (`tx` locked by the caller): the payment
 * is now under way, so its place is held PAYMENT_LINK_PLACE_SECONDS more (and for as long as the attempt
 * waits on the customer or their bank, lib/links/holds-place.ts). A checkout whose place has lapsed (left
 * idle past its short hold) takes one again if the link has one free, the link row locked so that two
 * customers never take its last; if not, 409 `payment_link_unavailable` and nothing is charged. Other
 * transactions are left as they are.
 */
export async function keepLinkPlace(trx: Trx, tx: TransactionRow): Promise<void> {
  if (tx.payment_link_id === null || tx.link_place_until === null) return;
  const now = Date.now();
  const until = now + env().PAYMENT_LINK_PLACE_SECONDS * 1000;
  if (!rowHoldsPlace(tx, now)) {
    let query = trx.selectFrom("payment_links").select(["usage_limit"]).where("id", "=", tx.payment_link_id);
    if (database().dialect === "postgres") query = query.forUpdate();
    const link = await query.executeTakeFirst();
    if (link && link.usage_limit !== null) {
      const others = await trx
        .selectFrom("transactions")
        .select((eb) => eb.fn.countAll().as("n"))
        .where("payment_link_id", "=", tx.payment_link_id)
        .where("id", "!=", tx.id)
        .where((eb) => holdsPlace(eb, now))
        .executeTakeFirst();
      if (Number(others?.n ?? 0) >= link.usage_limit) {
        throw new AppError(
          "payment_link_unavailable",
          "This payment link has reached its limit of payments while this checkout was left idle; nothing was charged.",
        );
      }
    }
  }
  if (toMillis(tx.link_place_until) < until) {
    await trx.updateTable("transactions").set({ link_place_until: until }).where("id", "=", tx.id).execute();
    tx.link_place_until = until;
  }
}
