import type { Mode } from "@/lib/db/schema";
import type { Trx } from "@/lib/db/types";
import { randomString } from "@/lib/security/tokens";
import type { EventType } from "./event-types";
import { findEndpoint } from "./find-endpoint";
import { relaySignal } from "./relay-signal";
import { scheduleDelivery } from "./schedule-delivery";

/**
 * Write an event with its `data` to the outbox inside the caller's database transaction (the state change and
 * its event commit together or not at all), and schedule its first delivery to the merchant's endpoint when one
 * is enabled and subscribed. `cause` makes it idempotent: the same type and cause never emit twice. Answers
 * whether it was written now.
 */
export async function recordEvent(
  trx: Trx,
  event: { merchantId: string; mode: Mode; type: EventType; reference: string; cause: string; data: unknown },
): Promise<boolean> {
  const now = Date.now();
  const id = `evt_${randomString(24)}`;
  const payload = JSON.stringify({
    event: event.type,
    data: event.data,
    timestamp: new Date(now).toISOString(),
  });
  const inserted = await trx
    .insertInto("events")
    .values({
      id,
      merchant_id: event.merchantId,
      mode: event.mode,
      type: event.type,
      reference: event.reference,
      dedupe_key: `${event.type}:${event.cause}`,
      payload,
      created_at: now,
      delivered_at: null,
    })
    .onConflict((oc) => oc.column("dedupe_key").doNothing())
    .executeTakeFirst();
  if (Number(inserted.numInsertedOrUpdatedRows ?? 0n) !== 1) return false;

  const endpoint = await findEndpoint(trx, event.merchantId, event.mode);
  if (endpoint?.status !== "enabled" || !(JSON.parse(endpoint.events) as string[]).includes(event.type))
    return true;
  await scheduleDelivery(trx, {
    eventId: id,
    endpointId: endpoint.id,
    merchantId: event.merchantId,
    mode: event.mode,
    attempt: 1,
    trigger: "event",
    dueAt: now,
  });
  // After this transaction commits; a relay that looks too early finds it on its next poll.
  setTimeout(() => relaySignal.wake(), 5).unref?.();
  return true;
}
