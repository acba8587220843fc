import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { freePort } from "../scripts/lib/free-port";
import { whyRebuild } from "../scripts/prepare.mjs";

/**
 * Build once, serve anywhere (docs/deploy.md "Build once"): after `npm run build`, `npm start` serves that build as
 * it is with whatever configuration it is given (another address, port, deployment), printing no build line and
 * leaving the source tree and the build as they were; and a build cut short leaves the build in service servable.
 */
const ROOT = resolve(import.meta.dirname, "..");
const dir = mkdtempSync(join(tmpdir(), "paygate-build-once-"));
const children: ChildProcess[] = [];
afterAll(() => {
  for (const child of children) if (child.exitCode === null) child.kill("SIGKILL");
  rmSync(dir, { recursive: true, force: true });
});

const gitStatus = () => execFileSync("git", ["status", "--porcelain"], { cwd: ROOT, encoding: "utf8" });
const buildId = () => readFileSync(join(ROOT, ".next", "BUILD_ID"), "utf8");
const inService = () => realpathSync(join(ROOT, ".next"));

/** `npm start` as a newcomer or an operator runs it (scripts/start.mjs), with only the given settings. */
function npmStart(env: Record<string, string>) {
  const child = spawn(process.execPath, ["scripts/start.mjs"], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? "",
      HOME: process.env.HOME ?? "",
      NODE_ENV: "production",
      HOSTNAME: "127.0.0.1",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.push(child);
  let output = "";
  child.stdout?.on("data", (d) => {
    output += d;
  });
  child.stderr?.on("data", (d) => {
    output += d;
  });
  const exited = new Promise<number | null>((done) => child.on("exit", (code) => done(code)));
  return { child, exited, output: () => output };
}

async function firstAnswer(url: string, deadlineMs: number): Promise<number> {
  const started = performance.now();
  while (performance.now() - started < deadlineMs) {
    try {
      if ((await fetch(url)).status === 200) return performance.now() - started;
    } catch {}
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${url} did not answer within ${deadlineMs} ms`);
}

describe("a build any deployment serves as it is", () => {
  it("two starts with other addresses, ports and deployments serve the build as it is, within 10 s, building nothing", async () => {
    expect(whyRebuild(), "the suites run on an up-to-date build").toBe("");
    const before = { status: gitStatus(), buildId: buildId(), folder: inService() };
    const [stagingPort, productionPort] = [await freePort(), await freePort()];
    const staging = {
      url: `http://127.0.0.1:${stagingPort}`,
      start: npmStart({
        PORT: String(stagingPort),
        PUBLIC_BASE_URL: `http://127.0.0.1:${stagingPort}`,
        PAYMENTS_ENV: "staging",
        DATABASE_URL: `file:${join(dir, "staging.db")}`,
        DEMO_MERCHANT_FILE: join(dir, "demo.json"),
      }),
    };
    const production = {
      url: `http://127.0.0.1:${productionPort}`,
      start: npmStart({
        PORT: String(productionPort),
        PUBLIC_BASE_URL: "https://pay.shop.example",
        PAYMENTS_ENV: "production",
        APP_SECRET: "a-production-secret-of-at-least-32-characters",
        DATABASE_URL: `file:${join(dir, "production.db")}`,
      }),
    };
    // Started side by side: the second start beside a running one serves the same build too.
    const waited = await Promise.all(
      [staging, production].map((s) => firstAnswer(`${s.url}/v1/ping`, 10_000)),
    );
    for (const ms of waited) expect(ms).toBeLessThan(10_000);

    // Each serves its own configuration at run time.
    const servers = async (url: string) =>
      ((await (await fetch(`${url}/v1/openapi.json`)).json()) as { servers: { url: string }[] }).servers.map(
        (s) => s.url,
      );
    expect(await servers(staging.url)).toContain(staging.url);
    expect(await servers(production.url)).toContain("https://pay.shop.example");
    const demo = JSON.parse(readFileSync(join(dir, "demo.json"), "utf8")) as { testSecretKey: string };
    const init = (await (
      await fetch(`${staging.url}/v1/payment/initialize`, {
        method: "POST",
        headers: { "x-api-key": demo.testSecretKey, "content-type": "application/json" },
        body: JSON.stringify({ amount: "5000" }),
      })
    ).json()) as { data: { checkoutUrl: string } };
    expect(init.data.checkoutUrl.startsWith(`${staging.url}/pay/`)).toBe(true);

    for (const s of [staging, production]) {
      s.start.child.kill("SIGTERM");
      expect(await s.start.exited).toBe(0);
      expect(s.start.output()).not.toMatch(/Building|Installing|next build/);
    }
    expect(gitStatus()).toBe(before.status);
    expect(buildId()).toBe(before.buildId);
    expect(inService()).toBe(before.folder);
    // Each start recorded itself as serving the build while it ran, and took its record away on the way out.
    const serving = (() => {
      try {
        return readdirSync(join(before.folder, "serving"));
      } catch {
        return [];
      }
    })();
    for (const s of [staging, production]) expect(serving).not.toContain(String(s.start.child.pid));
  }, 60_000);

  it("a build killed midway leaves the build in service as it was, and servable", async () => {
    const before = { status: gitStatus(), buildId: buildId(), folder: inService() };
    const build = spawn(process.execPath, ["scripts/build.mjs"], {
      cwd: ROOT,
      env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" },
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
    });
    children.push(build);
    let output = "";
    const building = new Promise<void>((done) => {
      const look = (d: Buffer) => {
        output += d;
        if (/Creating an optimized production build/.test(output)) done();
      };
      build.stdout?.on("data", look);
      build.stderr?.on("data", look);
    });
    await building;
    await new Promise((r) => setTimeout(r, 3_000));
    // The whole group: the build script and the next build under it, as a cut-off CI job or a closed terminal.
    if (build.pid) process.kill(-build.pid, "SIGKILL");
    await new Promise((r) => build.on("exit", r));
    expect(output).toMatch(/Building the app into \.next-[a-z] /);

    expect(buildId()).toBe(before.buildId);
    expect(inService()).toBe(before.folder);
    expect(gitStatus()).toBe(before.status);
    expect(whyRebuild()).toBe("");
    const port = await freePort();
    const served = npmStart({ PORT: String(port), DATABASE_URL: `file:${join(dir, "after-kill.db")}` });
    await firstAnswer(`http://127.0.0.1:${port}/v1/ping`, 30_000);
    served.child.kill("SIGTERM");
    expect(await served.exited).toBe(0);
    expect(served.output()).not.toMatch(/Building|next build/);
  }, 180_000);
});
