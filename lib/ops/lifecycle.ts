import { database } from "@/lib/db/client";
import { env } from "@/lib/env";
import { stopJobs } from "@/lib/jobs/runner";
import { log } from "@/lib/log";
import { processState } from "@/lib/process-state";
import { closeTransport } from "@/lib/receipts/transport";
import { closeRateLimitStore } from "@/lib/security/rate-limit-store";

/**
 * The process's life after start-up. server.mjs (plain JavaScript, outside the app's bundles) reaches these
 * through a `globalThis` symbol that boot registers, and on SIGTERM runs: `drain` (health answers 503, the
 * background jobs stop and finish what they hold) beside its own closing of the HTTP server, then `close`.
 */
const lifecycle = processState("lifecycle", () => ({ draining: false }));

/** Whether this process is shutting down (GET /v1/health answers 503, so a balancer stops sending to it). */
export function isDraining(): boolean {
  return lifecycle.draining;
}

/**
 * Stop taking background work and let what is under way finish (deliveries in flight, a sweep), within
 * SHUTDOWN_GRACE_SECONDS; then close the mail transport.
 */
export async function drain(): Promise<void> {
  if (lifecycle.draining) return;
  lifecycle.draining = true;
  log.info("draining", { pid: process.pid });
  await stopJobs(env().SHUTDOWN_GRACE_SECONDS * 1000);
  await closeTransport();
}

/** Close the database and the rate-limit store; the last step before the process exits. */
export async function close(): Promise<void> {
  await closeRateLimitStore();
  await database().db.destroy();
}

export type Lifecycle = { drain: () => Promise<void>; close: () => Promise<void> };
export const LIFECYCLE_KEY = Symbol.for("paygate.lifecycle");

/** Make `drain` and `close` reachable from server.mjs. */
export function registerLifecycle(): void {
  (globalThis as unknown as Record<symbol, Lifecycle>)[LIFECYCLE_KEY] = { drain, close };
}
