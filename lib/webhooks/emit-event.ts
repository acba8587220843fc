import type { TransactionRow, Trx } from "@/lib/db/types";
import { eventData } from "./event-data";
import type { EventType } from "./event-types";
import { recordEvent } from "./record-event";

/**
 * Write a payment's event to the outbox inside the caller's database transaction (recordEvent), its `data`
 * made from the transaction (eventData). `cause` makes it idempotent: the same cause never emits twice.
 */
export async function emitEvent(
  trx: Trx,
  tx: TransactionRow,
  type: EventType,
  cause: string,
  extra: Record<string, unknown> = {},
): Promise<void> {
  const authorization =
    type.startsWith("payment.") && tx.authorization_id
      ? await trx
          .selectFrom("card_authorizations")
          .selectAll()
          .where("id", "=", tx.authorization_id)
          .executeTakeFirst()
      : undefined;
  await recordEvent(trx, {
    merchantId: tx.merchant_id,
    mode: tx.mode,
    type,
    reference: tx.reference,
    cause,
    data: eventData(tx, type, extra, authorization ?? null),
  });
}
