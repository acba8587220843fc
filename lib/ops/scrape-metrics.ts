import cluster from "node:cluster";
import { randomUUID } from "node:crypto";
import { sql } from "kysely";
import client from "prom-client";
import { AppError } from "@/lib/core/errors";
import { metrics } from "@/lib/core/metrics";
import { db } from "@/lib/db/client";
import { processState } from "@/lib/process-state";
import { authorizeMetrics } from "./authorize-metrics";

/** The message a cluster worker sends its primary for the sum of every worker's metrics (server.mjs answers). */
const ASK = "paygate:metrics";
const PRIMARY_TIMEOUT_MS = 5_000;

/**
 * What the database says, the same from every process and instance: the outboxes' depth and the webhook
 * backlog. Read at each scrape by the process that answers it, in a registry of their own (never summed over a
 * cluster's workers; across instances, alert on max(), docs/deploy.md).
 */
const databaseGauges = () =>
  processState("metrics.database", () => {
    const registry = new client.Registry();
    return {
      registry,
      outboxDepth: new client.Gauge({
        name: "paygate_outbox_depth",
        help: "Rows of an outbox not yet sent (pending or sending), whatever their due time: webhook_deliveries, receipts.",
        labelNames: ["outbox"] as const,
        registers: [registry],
      }),
      webhooksPending: new client.Gauge({
        name: "paygate_webhook_deliveries_pending",
        help: "Webhook deliveries due now and not yet sent (pending and past their due time, or being sent).",
        registers: [registry],
      }),
      oldestPending: new client.Gauge({
        name: "paygate_webhook_oldest_pending_seconds",
        help: "How long the longest-waiting webhook delivery has been due without being sent; 0 when none is.",
        registers: [registry],
      }),
    };
  });

async function readDatabaseGauges(): Promise<string> {
  const gauges = databaseGauges();
  const now = Date.now();
  const [webhooks, receipts] = await Promise.all([
    db()
      .selectFrom("webhook_deliveries")
      .select([
        sql<number | string>`count(*)`.as("unsent"),
        sql<number | string>`sum(case when status = 'sending' or due_at <= ${now} then 1 else 0 end)`.as(
          "due",
        ),
        sql<number | string | null>`min(case when due_at <= ${now} then due_at end)`.as("oldest_due_at"),
      ])
      .where("status", "in", ["pending", "sending"])
      .executeTakeFirstOrThrow(),
    db()
      .selectFrom("receipts")
      .select(sql<number | string>`count(*)`.as("unsent"))
      .where("status", "in", ["pending", "sending"])
      .executeTakeFirstOrThrow(),
  ]);
  gauges.outboxDepth.set({ outbox: "webhook_deliveries" }, Number(webhooks.unsent));
  gauges.outboxDepth.set({ outbox: "receipts" }, Number(receipts.unsent));
  gauges.webhooksPending.set(Number(webhooks.due ?? 0));
  const oldest = webhooks.oldest_due_at === null ? null : Number(webhooks.oldest_due_at);
  gauges.oldestPending.set(oldest === null ? 0 : Math.max(0, (now - oldest) / 1000));
  return gauges.registry.metrics();
}

/** This process's metrics; in a cluster worker, every worker's summed by the primary (prom-client's aggregator). */
function processMetrics(): Promise<string> {
  const { register } = metrics();
  const send = process.send?.bind(process);
  if (!cluster.isWorker || !send) return register.metrics();
  const id = randomUUID();
  return new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      process.off("message", onMessage);
      reject(new AppError("service_unavailable", "The cluster's metrics did not arrive in time; try again."));
    }, PRIMARY_TIMEOUT_MS);
    function onMessage(message: unknown) {
      const answer = message as { type?: string; id?: string; text?: string; error?: string };
      if (answer?.type !== ASK || answer.id !== id) return;
      clearTimeout(timer);
      process.off("message", onMessage);
      if (typeof answer.text === "string") resolve(answer.text);
      else
        reject(
          new AppError("service_unavailable", "The cluster's metrics could not be gathered; try again."),
        );
    }
    process.on("message", onMessage);
    send({ type: ASK, id });
  });
}

/**
 * GET /v1/metrics' text, for a caller authorizeMetrics lets in: the processes' metrics and the database's
 * figures, in Prometheus' text format.
 */
export async function scrapeMetrics(caller: {
  authorization: string | null;
  clientAddress: string;
}): Promise<{ text: string; contentType: string }> {
  authorizeMetrics(caller);
  const [own, database] = await Promise.all([processMetrics(), readDatabaseGauges()]);
  return { text: `${own.trimEnd()}\n${database}`, contentType: metrics().register.contentType };
}
