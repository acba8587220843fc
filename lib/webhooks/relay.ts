import type { Selectable } from "kysely";
import { database, db } from "@/lib/db/client";
import type { WebhookDeliveriesTable } from "@/lib/db/schema";
import type { Trx } from "@/lib/db/types";
import { env } from "@/lib/env";
import { log } from "@/lib/log";
import { processState } from "@/lib/process-state";
import { pepper } from "@/lib/security/pepper";
import { signedHeaders, signingSecrets } from "./endpoint-secrets";
import { type PostResult, postWebhook } from "./post-webhook";
import { relaySignal } from "./relay-signal";
import { maxAttempts, nextAttemptDelayMs } from "./schedule";
import { scheduleDelivery } from "./schedule-delivery";

type Delivery = Selectable<WebhookDeliveriesTable>;

const BATCH = 32;
/** Attempts one relay sends at once. */
const MAX_IN_FLIGHT = 64;
const IDLE_POLL_MS = 250;

/**
 * Claim due attempts. Several relays (server processes, `npm run worker`) may run against one database:
 * on PostgreSQL each claims with `FOR UPDATE SKIP LOCKED`, on SQLite the claim runs under `BEGIN IMMEDIATE`;
 * either way an attempt is marked `sending` by exactly one relay, which holds it until `locked_until`
 * (after which a relay that died holding it is presumed dead and the attempt is claimed again). The lock
 * outlasts the attempt's time limit by as much again (at least 5 s), for recording its outcome.
 */
export async function claimDue(now = Date.now(), limit = BATCH): Promise<Delivery[]> {
  const timeout = env().WEBHOOK_TIMEOUT_MS;
  const lockMs = timeout + Math.max(5_000, timeout);
  return db()
    .transaction()
    .execute(async (trx) => {
      let query = trx
        .selectFrom("webhook_deliveries")
        .select("id")
        .where((eb) =>
          eb.or([
            eb.and([eb("status", "=", "pending"), eb("due_at", "<=", now)]),
            eb.and([eb("status", "=", "sending"), eb("locked_until", "<", now)]),
          ]),
        )
        .orderBy("due_at")
        .limit(limit);
      if (database().dialect === "postgres") query = query.forUpdate().skipLocked();
      const ids = (await query.execute()).map((r) => r.id);
      if (ids.length === 0) return [];
      return trx
        .updateTable("webhook_deliveries")
        .set({ status: "sending", locked_until: now + lockMs })
        .where("id", "in", ids)
        .returningAll()
        .execute();
    });
}

/** Send one claimed attempt and record what happened; a failure schedules the next attempt. */
export async function deliver(delivery: Delivery): Promise<PostResult | null> {
  const [event, endpoint] = await Promise.all([
    db().selectFrom("events").selectAll().where("id", "=", delivery.event_id).executeTakeFirst(),
    db()
      .selectFrom("webhook_endpoints")
      .selectAll()
      .where("id", "=", delivery.endpoint_id)
      .executeTakeFirst(),
  ]);
  if (!event || !endpoint || endpoint.status !== "enabled") {
    await finish(
      delivery,
      {
        ok: false,
        status: null,
        latencyMs: 0,
        excerpt: "",
        error: endpoint ? "endpoint disabled" : "endpoint removed",
        retryAfterMs: null,
      },
      { retry: false, url: endpoint?.url ?? null },
    );
    return null;
  }
  const headers = signedHeaders(event.id, event.payload, signingSecrets(await pepper(), endpoint));
  const result = await postWebhook({
    url: endpoint.url,
    body: event.payload,
    headers,
    timeoutMs: env().WEBHOOK_TIMEOUT_MS,
  });
  // A merchant's redelivery is one try; the automatic schedule belongs to the original emission.
  await finish(delivery, result, { retry: delivery.trigger !== "redeliver", url: endpoint.url });
  if (result.ok)
    log.info("webhook delivered", {
      eventId: event.id,
      type: event.type,
      attempt: delivery.attempt,
      ms: result.latencyMs,
    });
  else
    log.warn("webhook attempt failed", {
      eventId: event.id,
      type: event.type,
      attempt: delivery.attempt,
      status: result.status,
      error: result.error,
    });
  return result;
}

async function finish(
  delivery: Delivery,
  result: PostResult,
  options: { retry: boolean; url: string | null },
) {
  const now = Date.now();
  await db()
    .transaction()
    .execute(async (trx) => {
      const updated = await trx
        .updateTable("webhook_deliveries")
        .set({
          status: result.ok ? "succeeded" : "failed",
          locked_until: null,
          url: options.url,
          response_status: result.status,
          response_excerpt: result.excerpt.slice(0, 512) || null,
          latency_ms: result.latencyMs,
          error: result.error,
          finished_at: now,
        })
        .where("id", "=", delivery.id)
        .where("status", "=", "sending")
        .executeTakeFirst();
      // Another relay reclaimed it after our lock ran out: its answer stands, ours is not recorded twice.
      if (Number(updated.numUpdatedRows) !== 1) return;
      if (result.ok) {
        await trx
          .updateTable("events")
          .set({ delivered_at: now })
          .where("id", "=", delivery.event_id)
          .where("delivered_at", "is", null)
          .execute();
        return;
      }
      // 410 Gone disables the endpoint whatever the attempt, a merchant's redelivery included.
      if (result.status === 410) {
        await disableEndpoint(trx, delivery.endpoint_id, "The endpoint answered 410 Gone.", now);
        return;
      }
      if (!options.retry) return;
      const delay = nextAttemptDelayMs(delivery.attempt, result.retryAfterMs);
      if (delay !== null) {
        await scheduleDelivery(trx, {
          eventId: delivery.event_id,
          endpointId: delivery.endpoint_id,
          merchantId: delivery.merchant_id,
          mode: delivery.mode,
          attempt: delivery.attempt + 1,
          trigger: "retry",
          dueAt: now + delay,
        });
        return;
      }
      // The schedule is spent. If nothing at all reached this endpoint since the event was created, the
      // endpoint is persistently failing: disable it and say so where the merchant looks.
      const event = await trx
        .selectFrom("events")
        .select("created_at")
        .where("id", "=", delivery.event_id)
        .executeTakeFirstOrThrow();
      const anySuccess = await trx
        .selectFrom("webhook_deliveries")
        .select("id")
        .where("endpoint_id", "=", delivery.endpoint_id)
        .where("status", "=", "succeeded")
        .where("finished_at", ">=", event.created_at)
        .limit(1)
        .executeTakeFirst();
      if (!anySuccess) {
        await disableEndpoint(
          trx,
          delivery.endpoint_id,
          `Every delivery failed for ${maxAttempts()} attempts.`,
          now,
        );
      }
    });
}

async function disableEndpoint(trx: Trx, endpointId: string, reason: string, now: number) {
  await trx
    .updateTable("webhook_endpoints")
    .set({ status: "disabled", disabled_reason: reason, disabled_at: now, updated_at: now })
    .where("id", "=", endpointId)
    .where("status", "=", "enabled")
    .execute();
  log.warn("webhook endpoint disabled", { endpointId, reason });
}

const state = processState("webhooks.relay", () => ({
  running: false,
  stop: false,
  /** Settles when the running loop has ended and its deliveries in flight have finished. */
  done: Promise.resolve(),
}));
/** After a pass fails (the database is away), how long the relay waits before it tries again. */
const ERROR_PAUSE_MS = 1_000;

/**
 * Run the relay in this process until `stopRelay`; started once per process however often it is called.
 * Up to MAX_IN_FLIGHT attempts are sent at once, and a free slot is refilled as soon as it frees: an endpoint
 * that hangs until the timeout holds one slot, never the deliveries of every other merchant behind it.
 */
export function startRelay(): void {
  if (state.running) return;
  state.running = true;
  state.stop = false;
  state.done = (async () => {
    log.info("webhook relay started", { pid: process.pid });
    const inFlight = new Set<Promise<void>>();
    while (!state.stop) {
      const room = MAX_IN_FLIGHT - inFlight.size;
      let claimed: Delivery[] = [];
      let failed = false;
      if (room > 0) {
        try {
          claimed = await claimDue(Date.now(), Math.min(BATCH, room));
        } catch (err) {
          failed = true;
          log.error("webhook relay pass failed", { error: err instanceof Error ? err.message : String(err) });
        }
      }
      for (const delivery of claimed) {
        const sending: Promise<void> = deliver(delivery)
          .then(
            () => undefined,
            // Left `sending`: another pass reclaims it once its lock runs out.
            (err) =>
              log.error("webhook delivery failed", {
                deliveryId: delivery.id,
                error: err instanceof Error ? err.message : String(err),
              }),
          )
          .finally(() => {
            inFlight.delete(sending);
            // The relay was full and may be asleep: a slot is free now.
            if (inFlight.size === MAX_IN_FLIGHT - 1) relaySignal.wake();
          });
        inFlight.add(sending);
      }
      if (claimed.length === 0 && !state.stop) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, failed ? ERROR_PAUSE_MS : IDLE_POLL_MS);
          relaySignal.wake = () => {
            clearTimeout(timer);
            resolve();
          };
        });
        relaySignal.wake = () => {};
      }
    }
    await Promise.allSettled(inFlight);
    state.running = false;
  })();
}

/**
 * Stop the relay: it claims nothing more, and the promise settles once the deliveries it is sending have
 * finished and been recorded (graceful shutdown waits for it).
 */
export function stopRelay(): Promise<void> {
  state.stop = true;
  relaySignal.wake();
  return state.done;
}
