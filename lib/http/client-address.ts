import { log } from "@/lib/log";

/** Header the front (server.mjs) sets to the caller's address on every request, over any value a client sent. */
export const CLIENT_ADDRESS_HEADER = "x-paygate-client-address";

/**
 * Set on `globalThis` by server.mjs before Next loads, in the same process: this process runs behind the
 * front, so the header is its own. A symbol, not an environment variable: nothing outside the process (a
 * deployer's `next start`, a child process inheriting the environment) can claim it.
 */
export const FRONT_MARK = Symbol.for("paygate.front");

let warned = false;

/**
 * The caller's address for the per-address rate limits (failed logins, unknown access codes). Only the front
 * overwrites the header on every request, so it is read only in a process the front started; under a bare
 * `next start` or `next dev` a client could set it to anything and dodge the limits, so there every caller is
 * "unknown" (one shared budget) and a warning says to run the service through server.mjs (`npm start`).
 */
export function clientAddressOf(headers: Headers): string {
  if ((globalThis as Record<symbol, unknown>)[FRONT_MARK] === true) {
    return headers.get(CLIENT_ADDRESS_HEADER) ?? "unknown";
  }
  if (!warned) {
    warned = true;
    log.warn(
      "not running behind server.mjs: client addresses are unknown, so per-address rate limits are shared by every caller; start the service with npm start (node server.mjs)",
    );
  }
  return "unknown";
}
