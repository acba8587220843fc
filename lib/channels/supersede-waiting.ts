import type { Trx } from "@/lib/db/types";
import type { Channel } from "@/lib/payments/channel-list";

/** A newer request on a channel replaces the one still waiting, so only the latest can be approved. */
export async function supersedeWaiting(trx: Trx, transactionId: string, channel: Channel) {
  await trx
    .updateTable("charge_attempts")
    .set({ status: "failed", failure_reason: "superseded", updated_at: Date.now() })
    .where("transaction_id", "=", transactionId)
    .where("channel", "=", channel)
    .where("status", "in", ["awaiting_bank_authorization", "awaiting_ussd"])
    .execute();
}
