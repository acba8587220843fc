// npm run worker - the background jobs on their own (lib/jobs/runner.ts, beside or instead of those inside each
// server process): the webhook and receipt relays, and the recurring jobs that end checkouts which expired
// unpaid, reconcile card attempts whose answer was lost and settle refunds due.
// Several workers and servers may run against one database: they claim work with FOR UPDATE SKIP LOCKED
// (PostgreSQL) or under BEGIN IMMEDIATE (SQLite). On SIGTERM or SIGINT the worker stops claiming, finishes the
// work it holds (within SHUTDOWN_GRACE_SECONDS) and exits 0.

import { createServer } from "node:http";
import { isAppError } from "@/lib/core/errors";
import { database } from "@/lib/db/client";
import { migrateToLatest } from "@/lib/db/migrate";
import { env } from "@/lib/env";
import { startJobs } from "@/lib/jobs/runner";
import { log } from "@/lib/log";
import { backgroundJobs } from "@/lib/ops/background-jobs";
import { close, drain } from "@/lib/ops/lifecycle";
import { registerProcessMetrics } from "@/lib/ops/register-process-metrics";
import { scrapeMetrics } from "@/lib/ops/scrape-metrics";
import { pepper } from "@/lib/security/pepper";

env();
await migrateToLatest(database().db);
await pepper();
registerProcessMetrics();
startJobs(backgroundJobs({ relays: true }));
log.info("worker running", { dialect: database().dialect, pid: process.pid });

// With WORKER_METRICS_PORT, the worker's own GET /v1/metrics (docs/deploy.md "Metrics"): the web processes' door
// is theirs, and a worker's jobs are counted only here.
const metricsPort = env().WORKER_METRICS_PORT;
const metricsServer =
  metricsPort === undefined
    ? null
    : createServer((req, res) => {
        const json = (status: number, error: string, message: string, headers = {}) => {
          res.writeHead(status, { "content-type": "application/json; charset=utf-8", ...headers });
          res.end(JSON.stringify({ status: "failed", error, message }));
        };
        if (req.method !== "GET" || (req.url ?? "").split("?")[0] !== "/v1/metrics")
          return json(404, "route_not_found", "This worker serves GET /v1/metrics only.");
        scrapeMetrics({
          authorization: req.headers.authorization ?? null,
          clientAddress: req.socket.remoteAddress ?? "unknown",
        }).then(
          ({ text, contentType }) => {
            res.writeHead(200, { "content-type": contentType, "cache-control": "no-store" });
            res.end(text);
          },
          (err) =>
            isAppError(err)
              ? json(err.status, err.code, err.message, err.headers)
              : json(500, "internal_error", "The metrics could not be read; see the worker's log."),
        );
      }).listen(metricsPort, env().HOSTNAME, () =>
        log.info("worker metrics listening", { port: metricsPort, pid: process.pid }),
      );

let stopping = false;
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    metricsServer?.close();
    const grace = setTimeout(() => {
      log.warn("shutdown grace period over; exiting with work unfinished", {
        seconds: env().SHUTDOWN_GRACE_SECONDS,
      });
      process.exit(0);
    }, env().SHUTDOWN_GRACE_SECONDS * 1000);
    grace.unref();
    void drain()
      .then(close)
      .then(
        () => {
          log.info("worker stopped", { pid: process.pid });
          process.exit(0);
        },
        (err) => {
          log.error("worker shutdown failed", { error: err instanceof Error ? err.message : String(err) });
          process.exit(1);
        },
      );
  });
}
