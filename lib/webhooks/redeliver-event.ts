import { assertServedMode } from "@/lib/core/assert-served-mode";
import { AppError } from "@/lib/core/errors";
import { database, db } from "@/lib/db/client";
import type { Mode } from "@/lib/db/schema";
import { consume } from "@/lib/security/rate-limit";
import { findEndpoint } from "./find-endpoint";
import { relaySignal } from "./relay-signal";
import { scheduleDelivery } from "./schedule-delivery";

/**
 * POST /merchants/events/{id}/redeliver: send the event again now, with the same `webhook-id` and body, to the
 * mode's current endpoint (which must be enabled). The answer is the attempt that will carry it.
 *
 * One event is never in flight more than once: while an attempt of it is waiting or being sent, a redelivery
 * joins that attempt (one still waiting for its retry time is made due now) instead of adding another. The
 * event's row is locked for the decision, so concurrent redeliveries on any instance join one attempt, and
 * attempt numbers stay unique (a unique index says so too). Redeliveries are rate limited per merchant
 * (429 `rate_limited`).
 */
export async function redeliverEvent(input: { merchantId: string; mode: Mode; eventId: string }) {
  assertServedMode(input.mode);
  const event = await db()
    .selectFrom("events")
    .select("id")
    .where("id", "=", input.eventId)
    .where("merchant_id", "=", input.merchantId)
    .where("mode", "=", input.mode)
    .executeTakeFirst();
  if (!event) throw new AppError("event_not_found", `No event ${input.eventId} in ${input.mode} mode.`);
  // Counted once the event is known (a typo'd id is a 404, not a spent redelivery), and before the database
  // transaction: the budget's store may need a connection of the same pool.
  await consume("redeliver", input.merchantId);
  const answer = await db()
    .transaction()
    .execute(async (trx) => {
      // The event's row, locked: redeliveries of one event decide one after another.
      if (database().dialect === "postgres") {
        await trx.selectFrom("events").select("id").where("id", "=", event.id).forUpdate().execute();
      }
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
      const now = Date.now();
      const open = await trx
        .selectFrom("webhook_deliveries")
        .select(["id", "attempt", "status", "due_at"])
        .where("event_id", "=", event.id)
        .where("status", "in", ["pending", "sending"])
        .orderBy("attempt", "desc")
        .executeTakeFirst();
      if (open) {
        if (open.status === "pending" && Number(open.due_at) > now) {
          await trx
            .updateTable("webhook_deliveries")
            .set({ due_at: now })
            .where("id", "=", open.id)
            .where("status", "=", "pending")
            .execute();
        }
        return { attempt: open.attempt, status: open.status, joined: true };
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
        dueAt: now,
      });
      return { attempt: number, status: "pending", joined: false };
    });
  setTimeout(() => relaySignal.wake(), 0).unref?.();
  return { id: input.eventId, ...answer };
}
