// npm run worker - the webhook relay on its own (beside or instead of the one inside each server process),
// and the sweep that ends checkouts which expired unpaid, reconciles card attempts whose answer was lost and
// settles sandbox refunds due.
// Several workers and servers may run against one database: they claim attempts with FOR UPDATE SKIP LOCKED
// (PostgreSQL) or under BEGIN IMMEDIATE (SQLite). On SIGTERM or SIGINT the worker stops claiming, finishes the
// deliveries it is sending (within SHUTDOWN_GRACE_SECONDS) and exits 0.

import { startCheckoutExpiry } from "@/lib/channels/abandon-expired";
import { database } from "@/lib/db/client";
import { migrateToLatest } from "@/lib/db/migrate";
import { env } from "@/lib/env";
import { log } from "@/lib/log";
import { close, drain } from "@/lib/ops/lifecycle";
import { startReceiptRelay } from "@/lib/receipts/outbox";
import { pepper } from "@/lib/security/pepper";
import { startRelay } from "@/lib/webhooks/relay";

env();
await migrateToLatest(database().db);
await pepper();
startRelay();
startReceiptRelay();
startCheckoutExpiry();
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
