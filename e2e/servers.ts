import { execFileSync } from "node:child_process";
import { tmpdir } from "node:os";
import { join } from "node:path";

/**
 * The servers the browser tests run against (playwright.config.ts starts them): the main one, with a real
 * 30-minute virtual-account window; one whose window is a few seconds, for the expiry flow only (every other
 * transfer test keeps a window that a slow, busy machine cannot run out of mid-test); a production deployment
 * (live keys only) whose Paystack is the double (lib/rails/paystack/double/), for the live-mode flows; and the
 * double itself.
 *
 * Their ports: `E2E_PORT` and the three after it when it is set; otherwise four ports free when the run starts,
 * so a port another program holds (a dev server on 3100, another checkout's run) never fails the run.
 * Playwright loads this file again in every worker process: the ports are chosen once, by the runner, and
 * passed to the workers in the environment (`PAYGATE_E2E_PORTS`), so every process agrees on them.
 */
const SERVERS = 4;

function ports(): number[] {
  const fixed = process.env.E2E_PORT;
  if (fixed) {
    const port = Number(fixed);
    if (!Number.isInteger(port) || port < 1 || port > 65535 - SERVERS)
      throw new Error(`E2E_PORT must be a port number (1-${65535 - SERVERS}), not ${JSON.stringify(fixed)}`);
    return Array.from({ length: SERVERS }, (_, i) => port + i);
  }
  process.env.PAYGATE_E2E_PORTS ??= freePorts(SERVERS).join(",");
  const chosen = process.env.PAYGATE_E2E_PORTS.split(",").map(Number);
  if (chosen.length !== SERVERS || chosen.some((p) => !p))
    throw new Error(`PAYGATE_E2E_PORTS is not ${SERVERS} ports: ${process.env.PAYGATE_E2E_PORTS}`);
  return chosen;
}

/**
 * `count` distinct ports free on 127.0.0.1 right now, the OS's choice (scripts/lib/free-port.ts does the same
 * asynchronously). Synchronous, since Playwright's configuration is read synchronously: a child process holds
 * the ports open together, so they differ, then lets them go.
 */
function freePorts(count: number): number[] {
  const script = `
    const net = require("node:net");
    const servers = Array.from({ length: ${count} }, () => net.createServer());
    let left = servers.length;
    for (const s of servers) s.listen(0, "127.0.0.1", () => {
      if (--left > 0) return;
      console.log(servers.map((x) => x.address().port).join(","));
      for (const x of servers) x.close();
    });`;
  return execFileSync(process.execPath, ["-e", script], { encoding: "utf8" }).trim().split(",").map(Number);
}

const [mainPort, shortWindowPort, livePort, doublePort] = ports();

export const MAIN_BASE_URL = `http://127.0.0.1:${mainPort}`;
export const SHORT_WINDOW_BASE_URL = `http://127.0.0.1:${shortWindowPort}`;
export const LIVE_BASE_URL = `http://127.0.0.1:${livePort}`;
export const PAYSTACK_DOUBLE_URL = `http://127.0.0.1:${doublePort}`;
/** BANK_TRANSFER_WINDOW_SECONDS of the short-window server. */
export const SHORT_WINDOW_SECONDS = 10;

/**
 * The demo merchant's credentials file of the server `name` in this run ({email, password, testSecretKey}),
 * written at its boot (playwright.config.ts sets DEMO_MERCHANT_FILE to it).
 */
export function demoMerchantFile(name: string): string {
  return join(tmpdir(), `${process.env.PAYGATE_E2E_RUN_ID}-${name}-demo-merchant.json`);
}

/**
 * In Playwright's runner (not its workers, which load the configuration too): when the `npm test` that
 * started the run (scripts/test.mjs, PAYGATE_TEST_PARENT_PID) is gone, even killed outright, the runner
 * stops as Ctrl-C stops it, so it stops its web servers too instead of running on without anyone to report
 * to. Checked once a second.
 */
export function endWithParent(): void {
  const parent = Number(process.env.PAYGATE_TEST_PARENT_PID);
  const state = globalThis as { paygateEndWithParent?: boolean };
  if (!parent || process.env.TEST_WORKER_INDEX !== undefined || state.paygateEndWithParent) return;
  state.paygateEndWithParent = true;
  const timer = setInterval(() => {
    try {
      process.kill(parent, 0);
    } catch {
      clearInterval(timer);
      process.kill(process.pid, "SIGINT");
    }
  }, 1_000);
  timer.unref();
}
