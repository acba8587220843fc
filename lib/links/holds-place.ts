import type { ExpressionBuilder } from "kysely";
import type { Database } from "@/lib/db/schema";

/**
 * Whether a payment holds a place on its link: paid, or still open (not finished, checkout not expired) with
 * a payment under way or inside its short hold. "Under way" is an attempt waiting on the customer or their
 * bank (`awaiting_transfer`, `awaiting_bank_authorization`, `awaiting_ussd`, `awaiting_otp`); a checkout
 * that is only `pending` holds its place until `link_place_until` (PAYMENT_LINK_PLACE_SECONDS after it
 * started or last tried to pay), so anyone who starts checkouts without paying cannot keep a link used up.
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
