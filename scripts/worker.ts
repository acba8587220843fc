// npm run worker - the background jobs on their own (lib/jobs/runner.ts, beside or instead of those inside each
// server process): the webhook and receipt relays, and the recurring jobs that end checkouts which expired
// unpaid, reconcile card attempts whose answer was lost and settle refunds due.
// Several workers and servers may run against one database: they claim work with FOR UPDATE SKIP LOCKED
// (PostgreSQL) or under BEGIN IMMEDIATE (SQLite). On SIGTERM or SIGINT the worker stops claiming, finishes the
// work it holds (within SHUTDOWN_GRACE_SECONDS) and exits 0.

import { database } from "@/lib/db/client";
import { migrateToLatest } from "@/lib/db/migrate";
import { env } from "@/lib/env";
import { startJobs } from "@/lib/jobs/runner";
import { log } from "@/lib/log";
import { backgroundJobs } from "@/lib/ops/background-jobs";
import { close, drain } from "@/lib/ops/lifecycle";
import { pepper } from "@/lib/security/pepper";

env();
await migrateToLatest(database().db);
await pepper();
startJobs(backgroundJobs({ relays: true }));
log.info("worker running", { dialect: database().dialect, pid: process.pid });

let stopping = false;
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
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
