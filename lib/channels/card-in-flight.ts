import type { Trx } from "@/lib/db/types";
import { env } from "@/lib/env";
import { latestAttempt } from "./attempts";

/**
 * Whether a card network call is still running for the transaction. One older than CARD_RECONCILE_SECONDS
 * died with its process and no longer counts (it no longer blocks the customer, nor the expiry sweep); card
 * reconciliation (lib/channels/reconcile-cards.ts) asks the network what became of it.
 */
export async function cardInFlight(trx: Trx, transactionId: string): Promise<boolean> {
  const inFlight = await latestAttempt(trx, transactionId, "card", ["authorizing"]);
  return (
    inFlight !== undefined && Number(inFlight.updated_at) > Date.now() - env().CARD_RECONCILE_SECONDS * 1000
  );
}
