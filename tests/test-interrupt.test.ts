import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { freePort } from "../scripts/lib/free-port";

/**
 * `npm test` stopped part-way (SIGTERM from a CI runner or `timeout`, SIGINT, even SIGKILL) ends with everything it
 * started: its Playwright run and that run's web servers (playwright.config.ts, e2e/servers.ts). The run is
 * `node scripts/test.mjs` with a vitest filter that matches nothing, so it reaches Playwright at once; it is
 * stopped once Playwright's servers answer. Every process of the run carries its PAYGATE_E2E_RUN_ID, so what
 * is left of it is found by that, and killed afterwards whatever the outcome.
 */
const root = resolve(import.meta.dirname, "..");

/** The processes whose environment holds `marker` (Linux's /proc). */
function processesWith(marker: string): number[] {
  const found: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      if (readFileSync(`/proc/${entry}/environ`, "utf8").includes(marker)) found.push(Number(entry));
    } catch {
      // Gone meanwhile, or not ours to read.
    }
  }
  return found;
}

const listening = (port: number) =>
  new Promise<boolean>((done) => {
    const socket = connect(port, "127.0.0.1");
    socket.once("connect", () => {
      socket.destroy();
      done(true);
    });
    socket.once("error", () => done(false));
  });

async function until(what: string, check: () => Promise<boolean> | boolean, ms: number) {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`timed out waiting for ${what}`);
}

const runs: string[] = [];
afterAll(() => {
  for (const run of runs)
    for (const pid of processesWith(`PAYGATE_E2E_RUN_ID=${run}`)) {
      try {
        process.kill(pid, "SIGKILL");
      } catch {}
    }
});

describe("npm test stopped part-way", () => {
  it.each(["SIGTERM", "SIGINT", "SIGKILL"] as const)(
    "on %s ends its Playwright run and every web server of it",
    async (signal) => {
      const run = `paygate-interrupt-${signal}-${process.pid}-${Date.now()}`;
      runs.push(run);
      const ports = await Promise.all([freePort(), freePort(), freePort(), freePort()]);
      const env: NodeJS.ProcessEnv = {
        PAYGATE_TEST_RESULTS: mkdtempSync(join(tmpdir(), "paygate-interrupt-")),
        ...process.env,
        PAYGATE_E2E_RUN_ID: run,
        PAYGATE_E2E_PORTS: ports.join(","),
      };
      delete env.E2E_PORT;
      for (const name of Object.keys(env)) if (name.startsWith("VITEST")) delete env[name];
      const child: ChildProcess = spawn(
        process.execPath,
        ["scripts/test.mjs", "no-such-test-file-of-this-run"],
        {
          cwd: root,
          env,
          stdio: ["ignore", "pipe", "pipe"],
        },
      );
      let output = "";
      child.stdout?.on("data", (d: Buffer) => {
        output += d;
      });
      child.stderr?.on("data", (d: Buffer) => {
        output += d;
      });
      const exited = new Promise<number | null>((done) => child.once("exit", (code) => done(code)));
      // Playwright's servers are up: the main one and the double answer.
      await until(
        "the web servers",
        async () => (await listening(ports[0] as number)) && (await listening(ports[3] as number)),
        180_000,
      );
      expect(processesWith(`PAYGATE_E2E_RUN_ID=${run}`).length).toBeGreaterThan(2);
      child.kill(signal);
      const code = await exited;
      expect(code, output).not.toBe(0);
      // Nothing of the run is left: no Playwright, no server, nothing listening on its ports.
      await until(
        "every process of the run to end",
        () => processesWith(`PAYGATE_E2E_RUN_ID=${run}`).length === 0,
        30_000,
      ).catch(() => {});
      expect(processesWith(`PAYGATE_E2E_RUN_ID=${run}`), output).toEqual([]);
      for (const port of ports) expect(await listening(port), `port ${port}`).toBe(false);
    },
    240_000,
  );
});
