import type { Selectable } from "kysely";
import { type CardAuthorizationsTable, toMillis } from "@/lib/db/schema";

export type AuthorizationRow = Selectable<CardAuthorizationsTable>;

/** What an authorization can be: charged (`active`), stopped by the merchant, or past its card's expiry. */
export type AuthorizationStatus = "active" | "deactivated" | "expired";

/** The authorization's own clock: real time, moved forward by test mode's clock (POST /v1/sandbox/clock/advance). */
export function authorizationNow(row: Pick<AuthorizationRow, "clock_offset_ms">, now = Date.now()): number {
  return now + toMillis(row.clock_offset_ms);
}

/**
 * An authorization's status now: `deactivated` for good once the merchant stopped it; `expired` once its
 * card's expiry month has ended (a card is valid through the last day of that month, in UTC) by its clock.
 */
export function authorizationStatus(
  row: Pick<AuthorizationRow, "status" | "exp_month" | "exp_year" | "clock_offset_ms">,
  now = Date.now(),
): AuthorizationStatus {
  if (row.status === "deactivated") return "deactivated";
  const at = new Date(authorizationNow(row, now));
  const current = at.getUTCFullYear() * 12 + at.getUTCMonth();
  return row.exp_year * 12 + (row.exp_month - 1) < current ? "expired" : "active";
}
