import { assertServedMode } from "@/lib/core/assert-served-mode";
import { AppError } from "@/lib/core/errors";
import { db } from "@/lib/db/client";
import { keysetPage } from "@/lib/db/keyset";
import type { Mode } from "@/lib/db/schema";
import { presentEvent } from "./present";

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
