import type { Selectable } from "kysely";
import { db } from "@/lib/db/client";
import { keysetPage } from "@/lib/db/keyset";
import { type EventsTable, type Mode, toMillis, type WebhookDeliveriesTable } from "@/lib/db/schema";
import { AppError } from "@/lib/http/errors";
import { assertServedMode } from "@/lib/merchants/assert-served-mode";

const iso = (v: number | string | bigint | null) => (v === null ? null : new Date(toMillis(v)).toISOString());

/** An event as the events endpoints show it, with every delivery attempt (status code, latency, excerpt). */
function presentEvent(e: Selectable<EventsTable>, attempts: Selectable<WebhookDeliveriesTable>[]) {
  return {
    id: e.id,
    type: e.type,
    reference: e.reference,
    createdAt: iso(e.created_at),
    delivered: e.delivered_at !== null,
    deliveredAt: iso(e.delivered_at),
    payload: JSON.parse(e.payload) as unknown,
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

/**
 * GET /merchants/events and GET /events (secret key): the merchant's events of one mode, newest first, filtered by type, reference and
 * delivered-or-not, each with every delivery attempt (status code, latency, a short response excerpt).
 */
export async function listEvents(input: {
  merchantId: string;
  mode: Mode;
  type?: string;
  reference?: string;
  delivered?: "true" | "false";
  limit: number;
  cursor?: string;
}) {
  assertServedMode(input.mode);
  // The events and their attempts are read from one snapshot: read apart, a delivery committing between the
  // two reads would list its event as undelivered beside the attempt that delivered it.
  const { page, attempts, nextCursor } = await db()
    .transaction()
    .setIsolationLevel("repeatable read")
    .execute(async (trx) => {
      let query = trx
        .selectFrom("events")
        .selectAll()
        .where("merchant_id", "=", input.merchantId)
        .where("mode", "=", input.mode);
      if (input.type) query = query.where("type", "=", input.type);
      if (input.reference) query = query.where("reference", "=", input.reference);
      if (input.delivered === "true") query = query.where("delivered_at", "is not", null);
      if (input.delivered === "false") query = query.where("delivered_at", "is", null);
      const { page, nextCursor } = await keysetPage(query, {
        cursor: input.cursor,
        idPattern: /^evt_[0-9A-Za-z]{24}$/,
        limit: input.limit,
      });
      const attempts = page.length
        ? await trx
            .selectFrom("webhook_deliveries")
            .selectAll()
            .where(
              "event_id",
              "in",
              page.map((e) => e.id),
            )
            .orderBy("attempt")
            .orderBy("created_at")
            .execute()
        : [];
      return { page, attempts, nextCursor };
    });
  return {
    events: page.map((e) => presentEvent(e, attempts)),
    nextCursor,
  };
}

/** GET /events/{id} (secret key): one event of the merchant in that mode, with its attempts, or 404. */
export async function getEvent(input: { merchantId: string; mode: Mode; id: string }) {
  assertServedMode(input.mode);
  const found = await db()
    .transaction()
    .setIsolationLevel("repeatable read")
    .execute(async (trx) => {
      const event = await trx
        .selectFrom("events")
        .selectAll()
        .where("id", "=", input.id)
        .where("merchant_id", "=", input.merchantId)
        .where("mode", "=", input.mode)
        .executeTakeFirst();
      if (!event) return undefined;
      const attempts = await trx
        .selectFrom("webhook_deliveries")
        .selectAll()
        .where("event_id", "=", event.id)
        .orderBy("attempt")
        .orderBy("created_at")
        .execute();
      return presentEvent(event, attempts);
    });
  if (!found) throw new AppError("event_not_found", `No event ${input.id} in ${input.mode} mode.`);
  return found;
}
