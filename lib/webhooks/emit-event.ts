import { toMillis, toMinor } from "@/lib/db/schema";
import type { TransactionRow, Trx } from "@/lib/db/types";
import { formatAmount } from "@/lib/money/amount";
import type { Currency } from "@/lib/money/currencies";
import { processState } from "@/lib/process-state";
import { newId, randomString } from "@/lib/security/tokens";
import type { EventType } from "./event-types";
import { findEndpoint } from "./find-endpoint";

/** In-process wake-up for the relay, so a delivery need not wait for the next poll. */
export const relaySignal = processState("webhooks.relaySignal", () => ({ wake: (): void => {} }));

/** `data` of an event (docs/api.md): always reference, amount, currency, status; payment events add more. */
export function eventData(tx: TransactionRow, type: EventType, extra: Record<string, unknown> = {}) {
  const currency = tx.currency as Currency;
  const money = (v: TransactionRow["amount_minor"] | null) =>
    v === null ? null : formatAmount(toMinor(v), currency);
  const base = {
    reference: tx.reference,
    amount: formatAmount(toMinor(tx.amount_minor), currency),
    currency,
    status: tx.status,
  };
  if (!type.startsWith("payment.")) return { ...base, ...extra };
  return {
    ...base,
    channel: tx.channel,
    fees: money(tx.fees_minor),
    amountSettled: money(tx.amount_settled_minor),
    paidAt: tx.paid_at === null ? null : new Date(toMillis(tx.paid_at)).toISOString(),
    metadata: tx.metadata ? (JSON.parse(tx.metadata) as Record<string, unknown>) : {},
    customer: { email: tx.email, name: tx.customer_name },
    ...extra,
  };
}

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
  const payload = JSON.stringify({
    event: type,
    data: eventData(tx, type, extra),
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

export async function scheduleDelivery(
  trx: Trx,
  input: {
    eventId: string;
    endpointId: string;
    merchantId: string;
    mode: TransactionRow["mode"];
    attempt: number;
    trigger: string;
    dueAt: number;
  },
): Promise<void> {
  await trx
    .insertInto("webhook_deliveries")
    .values({
      id: newId(),
      event_id: input.eventId,
      endpoint_id: input.endpointId,
      merchant_id: input.merchantId,
      mode: input.mode,
      attempt: input.attempt,
      trigger: input.trigger,
      status: "pending",
      due_at: input.dueAt,
      locked_until: null,
      url: null,
      response_status: null,
      response_excerpt: null,
      latency_ms: null,
      error: null,
      created_at: Date.now(),
      finished_at: null,
    })
    .execute();
}
