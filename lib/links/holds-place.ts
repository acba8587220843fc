import type { ExpressionBuilder } from "kysely";
import type { Database } from "@/lib/db/schema";

/**
 * Whether a payment holds a place on its link: paid, or still open (not finished, checkout not expired) with
 * a payment under way or inside its short hold. "Under way" is an attempt waiting on the customer or their
 * bank (`awaiting_transfer`, `awaiting_bank_authorization`, `awaiting_ussd`, `awaiting_otp`); a checkout
 * that is only `pending` holds its place until `link_place_until` (PAYMENT_LINK_PLACE_SECONDS after it
 * started or last tried to pay), so anyone who starts checkouts without paying cannot keep a link used up;
 * one nobody has started paying holds it only as a loan (`idleHold`, below).
 * Abandoned and failed ones give their place back, so a usage limit counts real payments. Checkouts started
 * before places were short (`link_place_until` null) hold theirs as long as they live.
 */
export function holdsPlace(eb: ExpressionBuilder<Database, "transactions">, now: number) {
  return eb.or([
    eb("status", "=", "success"),
    eb.and([
      eb("status", "not in", ["failed", "abandoned"]),
      eb("access_expires_at", ">", now),
      eb.or([
        eb("status", "!=", "pending"),
        eb("link_place_until", "is", null),
        eb("link_place_until", ">", now),
      ]),
    ]),
  ]);
}

/** The same rule for one row already read. */
export function rowHoldsPlace(
  row: {
    status: string;
    access_expires_at: number | string | bigint;
    link_place_until: number | string | bigint | null;
  },
  now: number,
): boolean {
  if (row.status === "success") return true;
  if (row.status === "failed" || row.status === "abandoned") return false;
  if (Number(row.access_expires_at) <= now) return false;
  return row.status !== "pending" || row.link_place_until === null || Number(row.link_place_until) > now;
}

/**
 * A place held by a checkout nobody has started paying (docs/api.md, "Payment links"): `pending`, inside its
 * short hold, and no payment ever started on it (no card attempt, no transfer account, no bank or USSD
 * request: `link_payment_started_at` null). Such a place is only lent: a customer who starts paying while the
 * link is otherwise full is handed it (lib/links/hand-over-place.ts).
 */
export function idleHold(eb: ExpressionBuilder<Database, "transactions">, now: number) {
  return eb.and([
    eb("status", "=", "pending"),
    eb("link_payment_started_at", "is", null),
    eb("link_place_until", "is not", null),
    eb("link_place_until", ">", now),
    eb("access_expires_at", ">", now),
  ]);
}

/** Whether a payment takes its place for good: it holds one (`holdsPlace`) and is not an idle hold. */
export function takesPlace(eb: ExpressionBuilder<Database, "transactions">, now: number) {
  return eb.and([holdsPlace(eb, now), eb.not(idleHold(eb, now))]);
}
