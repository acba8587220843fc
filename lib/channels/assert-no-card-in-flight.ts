import { AppError } from "@/lib/core/errors";
import type { Trx } from "@/lib/db/types";
import { cardInFlight } from "./card-in-flight";

/**
 * Refuse (409 `invalid_state`) to end a transaction unpaid while a card payment is at the network: the
 * network's answer decides. Whoever ends a checkout (cancel, a simulated failure) asks this under the row lock.
 */
export async function assertNoCardInFlight(trx: Trx, transactionId: string, action: string): Promise<void> {
  if (await cardInFlight(trx, transactionId)) {
    throw new AppError(
      "invalid_state",
      `Cannot ${action} while a card payment for this transaction is being processed; wait for its outcome.`,
    );
  }
}
