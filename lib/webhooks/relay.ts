import type { Selectable } from "kysely";
import { metrics } from "@/lib/core/metrics";
import { db } from "@/lib/db/client";
import type { WebhookDeliveriesTable } from "@/lib/db/schema";
import type { Trx } from "@/lib/db/types";
import { env } from "@/lib/env";
import { claimDue as claimWork } from "@/lib/jobs/claim";
import { type Job, queueJob } from "@/lib/jobs/runner";
import { log } from "@/lib/log";
import { pepper } from "@/lib/security/pepper";
import { signedHeaders, signingSecrets } from "./endpoint-secrets";
import { type PostResult, postWebhook } from "./post-webhook";
import { WEBHOOK_RELAY_JOB } from "./relay-signal";
import { maxAttempts, nextAttemptDelayMs } from "./schedule";
import { scheduleDelivery } from "./schedule-delivery";

type Delivery = Selectable<WebhookDeliveriesTable>;

const BATCH = 32;
/** Attempts one relay sends at once. */
const MAX_IN_FLIGHT = 64;
const IDLE_POLL_MS = 250;
/** After a claim fails (the database is away), how long the relay waits before it tries again. */
const ERROR_PAUSE_MS = 1_000;

/**
 * Claim due attempts. Several relays (server processes, `npm run worker`) may run against one database:
 * the claim (lib/jobs/claim.ts) takes each attempt for exactly one relay, which marks it `sending` and holds
 * it until `locked_until` (after which a relay that died holding it is presumed dead and the attempt is
 * claimed again). The lock outlasts the attempt's time limit by as much again (at least 5 s), for recording
 * its outcome.
 */
export async function claimDue(now = Date.now(), limit = BATCH): Promise<Delivery[]> {
  const timeout = env().WEBHOOK_TIMEOUT_MS;
  const { rows } = await claimWork("webhook_deliveries", {
    now,
    limit,
    leaseMs: timeout + Math.max(5_000, timeout),
  });
  return rows;
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
  else {
    metrics().webhookFailures.inc();
    log.warn("webhook attempt failed", {
      eventId: event.id,
      type: event.type,
      attempt: delivery.attempt,
      status: result.status,
      error: result.error,
    });
  }
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

/**
 * The relay as a job on the runner: up to MAX_IN_FLIGHT attempts are sent at once, and a free slot is refilled
 * as soon as it frees, so an endpoint that hangs until the timeout holds one slot, never the deliveries of
 * every other merchant behind it. It polls every 250 ms when idle (a new event wakes it at once), and waits
 * 1 s after a claim failed (the database is away). An attempt whose recording failed is left `sending` and
 * claimed again once its lock runs out.
 */
export function webhookRelayJob(): Job {
  return queueJob<Delivery>({
    name: WEBHOOK_RELAY_JOB,
    title: "webhook relay",
    claim: (limit) => claimDue(Date.now(), limit),
    run: deliver,
    concurrency: MAX_IN_FLIGHT,
    batch: BATCH,
    idleMs: IDLE_POLL_MS,
    errorPauseMs: ERROR_PAUSE_MS,
    describe: (delivery) => ({ deliveryId: delivery.id }),
  });
}
