import type { TransactionRow, Trx } from "@/lib/db/types";
import { randomString } from "@/lib/security/tokens";
import { eventData } from "./event-data";
import type { EventType } from "./event-types";
import { findEndpoint } from "./find-endpoint";
import { relaySignal } from "./relay-signal";
import { scheduleDelivery } from "./schedule-delivery";

/**
 * Write an event to the outbox inside the caller's database transaction (the state change and its event
 * commit together or not at all), and schedule its first delivery to the merchant's endpoint when one is
 * enabled and subscribed. `cause` makes it idempotent: the same cause never emits twice.
 */
export async function emitEvent(
  trx: Trx,
  tx: TransactionRow,
  type: EventType,
  cause: string,
  extra: Record<string, unknown> = {},
): Promise<void> {
  const now = Date.now();
  const id = `evt_${randomString(24)}`;
  const authorization =
    type.startsWith("payment.") && tx.authorization_id
      ? await trx
          .selectFrom("card_authorizations")
          .selectAll()
          .where("id", "=", tx.authorization_id)
          .executeTakeFirst()
      : undefined;
  const payload = JSON.stringify({
    event: type,
    data: eventData(tx, type, extra, authorization ?? null),
    timestamp: new Date(now).toISOString(),
  });
  const inserted = await trx
    .insertInto("events")
    .values({
      id,
      merchant_id: tx.merchant_id,
      mode: tx.mode,
      type,
      reference: tx.reference,
      dedupe_key: `${type}:${cause}`,
      payload,
      created_at: now,
      delivered_at: null,
    })
    .onConflict((oc) => oc.column("dedupe_key").doNothing())
    .executeTakeFirst();
  if (Number(inserted.numInsertedOrUpdatedRows ?? 0n) !== 1) return;

  const endpoint = await findEndpoint(trx, tx.merchant_id, tx.mode);
  if (endpoint?.status !== "enabled" || !(JSON.parse(endpoint.events) as string[]).includes(type)) return;
  await scheduleDelivery(trx, {
    eventId: id,
    endpointId: endpoint.id,
    merchantId: tx.merchant_id,
    mode: tx.mode,
    attempt: 1,
    trigger: "event",
    dueAt: now,
  });
  // After this transaction commits; a relay that looks too early finds it on its next poll.
  setTimeout(() => relaySignal.wake(), 5).unref?.();
}
