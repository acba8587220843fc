import { db } from "@/lib/db/client";
import type { Mode } from "@/lib/db/schema";
import { AppError } from "@/lib/http/errors";
import { relaySignal, scheduleDelivery } from "./emit-event";
import { findEndpoint } from "./find-endpoint";

/**
 * POST /merchants/events/{id}/redeliver: send the event again now, with the same `webhook-id` and body, to the
 * mode's current endpoint (which must be enabled). The answer is the attempt that was queued.
 */
export async function redeliverEvent(input: { merchantId: string; mode: Mode; eventId: string }) {
  const attempt = await db()
    .transaction()
    .execute(async (trx) => {
      const event = await trx
        .selectFrom("events")
        .select(["id", "merchant_id", "mode"])
        .where("id", "=", input.eventId)
        .where("merchant_id", "=", input.merchantId)
        .where("mode", "=", input.mode)
        .executeTakeFirst();
      if (!event) throw new AppError("event_not_found", `No event ${input.eventId} in ${input.mode} mode.`);
      const endpoint = await findEndpoint(trx, input.merchantId, input.mode);
      if (!endpoint)
        throw new AppError(
          "invalid_state",
          `No ${input.mode} webhook endpoint is set; PUT /v1/merchants/webhook first.`,
        );
      if (endpoint.status !== "enabled") {
        throw new AppError(
          "invalid_state",
          "The webhook endpoint is disabled; save it again with PUT /v1/merchants/webhook to enable it.",
        );
      }
      const last = await trx
        .selectFrom("webhook_deliveries")
        .select((eb) => eb.fn.max("attempt").as("max"))
        .where("event_id", "=", event.id)
        .executeTakeFirst();
      const number = Number(last?.max ?? 0) + 1;
      await scheduleDelivery(trx, {
        eventId: event.id,
        endpointId: endpoint.id,
        merchantId: input.merchantId,
        mode: input.mode,
        attempt: number,
        trigger: "redeliver",
        dueAt: Date.now(),
      });
      return number;
    });
  setTimeout(() => relaySignal.wake(), 0).unref?.();
  return { id: input.eventId, attempt, status: "pending" };
}
