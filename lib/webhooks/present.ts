import type { Selectable } from "kysely";
import {
  type EventsTable,
  toMillis,
  type WebhookDeliveriesTable,
  type WebhookEndpointsTable,
} from "@/lib/db/schema";

const iso = (v: number | string | bigint | null) => (v === null ? null : new Date(toMillis(v)).toISOString());

/** An endpoint as the merchant sees it: never the secret. A disabled endpoint says why and since when. */
export function presentEndpoint(row: Selectable<WebhookEndpointsTable>) {
  return {
    mode: row.mode,
    url: row.url,
    events: JSON.parse(row.events) as string[],
    status: row.status,
    disabledReason: row.disabled_reason,
    disabledAt: iso(row.disabled_at),
    previousSecretExpiresAt: iso(row.previous_secret_expires_at),
  };
}

/** An event as the events endpoints show it, with every delivery attempt (status code, latency, excerpt). */
export function presentEvent(e: Selectable<EventsTable>, attempts: Selectable<WebhookDeliveriesTable>[]) {
  return {
    id: e.id,
    type: e.type,
    reference: e.reference,
    createdAt: new Date(toMillis(e.created_at)).toISOString(),
    delivered: e.delivered_at !== null,
    deliveredAt: iso(e.delivered_at),
    payload: JSON.parse(e.payload) as Record<string, unknown>,
    attempts: attempts
      .filter((a) => a.event_id === e.id)
      .map((a) => ({
        attempt: a.attempt,
        trigger: a.trigger,
        status: a.status,
        dueAt: iso(a.due_at),
        url: a.url,
        responseStatus: a.response_status,
        latencyMs: a.latency_ms,
        responseExcerpt: a.response_excerpt,
        error: a.error,
        finishedAt: iso(a.finished_at),
      })),
  };
}
