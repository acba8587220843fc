import { execFileSync } from "node:child_process";
import { tmpdir } from "node:os";
import { join } from "node:path";

/**
 * The servers the browser tests run against (playwright.config.ts starts both): the main one, with a real
 * 30-minute virtual-account window, and one whose window is a few seconds, for the expiry flow only. Every
 * other transfer test keeps a window that a slow, busy machine cannot run out of mid-test.
 *
 * Their ports: `E2E_PORT` and the one after it when it is set; otherwise two ports free when the run starts,
 * so a port another program holds (a dev server on 3100, another checkout's run) never fails the run.
 * Playwright loads this file again in every worker process: the ports are chosen once, by the runner, and
 * passed to the workers in the environment (`PAYGATE_E2E_PORTS`), so every process agrees on them.
 */
function ports(): [number, number] {
  const fixed = process.env.E2E_PORT;
  if (fixed) {
    const port = Number(fixed);
    if (!Number.isInteger(port) || port < 1 || port > 65534)
      throw new Error(`E2E_PORT must be a port number (1-65534), not ${JSON.stringify(fixed)}`);
    return [port, port + 1];
  }
  process.env.PAYGATE_E2E_PORTS ??= freePorts(2).join(",");
  const [main, short] = process.env.PAYGATE_E2E_PORTS.split(",").map(Number);
  if (!main || !short)
    throw new Error(`PAYGATE_E2E_PORTS is not two ports: ${process.env.PAYGATE_E2E_PORTS}`);
  return [main, short];
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

const [mainPort, shortWindowPort] = ports();

export const MAIN_BASE_URL = `http://127.0.0.1:${mainPort}`;
export const SHORT_WINDOW_BASE_URL = `http://127.0.0.1:${shortWindowPort}`;
/** BANK_TRANSFER_WINDOW_SECONDS of the short-window server. */
export const SHORT_WINDOW_SECONDS = 10;

/**
 * The demo merchant's credentials file of the server `name` in this run ({email, password, testSecretKey}),
 * written at its boot (playwright.config.ts sets DEMO_MERCHANT_FILE to it).
 */
export function demoMerchantFile(name: string): string {
  return join(tmpdir(), `${process.env.PAYGATE_E2E_RUN_ID}-${name}-demo-merchant.json`);
}
