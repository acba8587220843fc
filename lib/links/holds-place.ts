import type { ExpressionBuilder } from "kysely";
import type { Database } from "@/lib/db/schema";

/**
 * Whether a payment holds a place on its link: paid, or still open (not finished, checkout not expired; a
 * checkout lives at least as long as its bank transfer window, so money that may still arrive keeps its
 * place). Abandoned and failed ones give their place back, so a usage limit counts real payments.
 */
export function holdsPlace(eb: ExpressionBuilder<Database, "transactions">, now: number) {
  return eb.or([
    eb("status", "=", "success"),
    eb.and([eb("status", "not in", ["failed", "abandoned"]), eb("access_expires_at", ">", now)]),
  ]);
}
