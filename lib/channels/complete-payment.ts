import type { TransactionRow, Trx } from "@/lib/db/types";
import type { Channel } from "@/lib/payments/channel-list";
import { transition } from "@/lib/payments/state-machine";
import { enqueueReceipts } from "@/lib/receipts/outbox";
import { updateAttempt } from "./attempts";
import { releaseHeldTransfers } from "./held-transfers";
import { channelAmounts } from "./settlement";

/**
 * The one way a transaction becomes `success`: credit it once, from the channel that paid, inside the
 * caller's database transaction (the row must have been read with `lockTransaction`). The state machine
 * refuses a second success, so no path can credit twice.
 */
export async function completePayment(
  trx: Trx,
  tx: TransactionRow,
  input: { channel: Channel; attemptId: string },
): Promise<TransactionRow> {
  const { feeMinor, totalMinor, amountSettledMinor } = channelAmounts(tx, input.channel);
  const paid = await transition(trx, tx, "success", {
    channel: input.channel,
    fees_minor: feeMinor,
    total_minor: totalMinor,
    amount_settled_minor: amountSettledMinor,
    paid_at: Date.now(),
    mismatch_expected_minor: null,
    mismatch_received_minor: null,
  });
  await updateAttempt(trx, input.attemptId, { status: "success" });
  await enqueueReceipts(trx, paid, input.attemptId);
  // Paid another way (or on another account) than where transfers of too little were held: they go back.
  await releaseHeldTransfers(trx, paid);
  return paid;
}
