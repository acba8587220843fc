import { toMillis } from "@/lib/db/schema";
import type { TransactionRow, Trx } from "@/lib/db/types";
import { env } from "@/lib/env";
import { takeLinkPlace } from "./hand-over-place";
import { rowHoldsPlace } from "./holds-place";

/**
 * A charge is starting on a checkout of a usage-limited payment link (`tx` locked by the caller): the payment
 * is now under way, so its place is held PAYMENT_LINK_PLACE_SECONDS more (and for as long as the attempt
 * waits on the customer or their bank, lib/links/holds-place.ts), and the checkout is marked as paid for
 * (`link_payment_started_at`): its place is no longer one that can be handed to someone else. A checkout that
 * holds no place (started without one, left idle past its hold, or handed over) takes one first
 * (lib/links/hand-over-place.ts: a free one, or one nobody is paying for), or nothing is charged (409
 * `payment_link_unavailable`). Other transactions are left as they are.
 */
export async function keepLinkPlace(trx: Trx, tx: TransactionRow): Promise<void> {
  if (tx.payment_link_id === null || tx.link_place_until === null) return;
  const now = Date.now();
  const until = now + env().PAYMENT_LINK_PLACE_SECONDS * 1000;
  if (!rowHoldsPlace(tx, now)) await takeLinkPlace(trx, tx, now);
  const extend = toMillis(tx.link_place_until) < until;
  const started = tx.link_payment_started_at === null;
  if (!extend && !started) return;
  await trx
    .updateTable("transactions")
    .set({
      ...(extend && { link_place_until: until }),
      ...(started && { link_payment_started_at: now }),
    })
    .where("id", "=", tx.id)
    .execute();
  if (extend) tx.link_place_until = until;
  if (started) tx.link_payment_started_at = now;
}
