import { spawn } from "node:child_process";
import { createServer, type Server } from "node:http";
import { resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

/**
 * `npm test` runs Playwright after the HTTP suites. Its servers must not need a fixed port: with 3100 taken
 * (a developer's own server, another checkout's run), the run picks free ports, and every worker process,
 * which loads playwright.config.ts again, finds the servers the runner started.
 */
const root = resolve(import.meta.dirname, "..");

let blocker: Server | undefined;

beforeAll(async () => {
  // Hold 3100 as another program would: a developer's server answering every request. Already held by
  // someone else is just as good.
  blocker = await new Promise<Server | undefined>((done) => {
    const server = createServer((_req, res) => {
      res.writeHead(404, { connection: "close" }).end("not Paygate");
    });
    server.once("error", () => done(undefined));
    server.listen(3100, "127.0.0.1", () => done(server));
  });
});

afterAll(async () => {
  blocker?.closeAllConnections();
  await new Promise<void>((done) => (blocker ? blocker.close(() => done()) : done()));
});

describe("Playwright's servers", () => {
  it("start on free ports when 3100 is taken, and the workers reach them", async () => {
    const env: NodeJS.ProcessEnv = { ...process.env, CI: "1" };
    // As `npm test` runs it: no port given, no run of the runner's own.
    delete env.E2E_PORT;
    delete env.PAYGATE_E2E_PORTS;
    delete env.PAYGATE_E2E_RUN_ID;
    const run = spawn(
      process.execPath,
      [
        "node_modules/@playwright/test/cli.js",
        "test",
        "e2e/home.spec.ts",
        "--grep",
        "home page \\(phone\\)",
        "--reporter=line",
      ],
      { cwd: root, env, stdio: ["ignore", "pipe", "pipe"] },
    );
    let output = "";
    run.stdout.on("data", (d: Buffer) => {
      output += d;
    });
    run.stderr.on("data", (d: Buffer) => {
      output += d;
    });
    const timer = setTimeout(() => run.kill("SIGTERM"), 200_000);
    const code = await new Promise<number | null>((done) => run.once("exit", done));
    clearTimeout(timer);
    expect(output).not.toMatch(/is already used/);
    expect(code, output).toBe(0);
    expect(output).toMatch(/1 passed/);
  }, 240_000);
});
