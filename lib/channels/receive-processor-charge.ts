import { db } from "@/lib/db/client";
import type { Channel } from "@/lib/payments/channel-list";
import { lockTransaction } from "@/lib/payments/state-machine";
import { captureCharge } from "./capture-charge";

export type ChargeReport = "credited" | "refunded" | "already_captured";

/**
 * A processor reports that it took `amountMinor` on one of our charges (card, bank payment, USSD: its
 * webhook, or its answer to a return from the bank's page). Under the transaction's row lock, once: money not
 * yet recorded on the attempt is captured there (captureCharge: it pays the transaction, or is refunded);
 * money already recorded (the charge's own answer came first, or this report is a repeat) changes nothing.
 */
export async function receiveProcessorCharge(input: {
  attemptId: string;
  transactionId: string;
  channel: Channel;
  amountMinor: bigint;
}): Promise<ChargeReport> {
  return db()
    .transaction()
    .execute(async (trx) => {
      const tx = await lockTransaction(trx, input.transactionId);
      const attempt = await trx
        .selectFrom("charge_attempts")
        .select(["id", "captured_minor"])
        .where("id", "=", input.attemptId)
        .executeTakeFirstOrThrow();
      if (attempt.captured_minor !== null) return "already_captured";
      return captureCharge(trx, tx, { id: attempt.id, channel: input.channel }, input.amountMinor);
    });
}
