// npm run worker - the webhook relay on its own (beside or instead of the one inside each server process),
// and the sweep that ends checkouts which expired unpaid.
// Several workers and servers may run against one PostgreSQL: they claim attempts with FOR UPDATE SKIP LOCKED.

import { startCheckoutExpiry, stopCheckoutExpiry } from "@/lib/channels/abandon-expired";
import { database } from "@/lib/db/client";
import { migrateToLatest } from "@/lib/db/migrate";
import { env } from "@/lib/env";
import { log } from "@/lib/log";
import { pepper } from "@/lib/security/pepper";
import { startRelay, stopRelay } from "@/lib/webhooks/relay";

env();
await migrateToLatest(database().db);
await pepper();
startRelay();
startCheckoutExpiry();
log.info("worker running", { dialect: database().dialect });

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    stopRelay();
    stopCheckoutExpiry();
    setTimeout(() => process.exit(0), 500).unref();
  });
}
