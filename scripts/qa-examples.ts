// npm run qa:examples: the QA kit's example suite (qa-kit/examples) against the built app, holding nothing but
// what a merchant's QA team holds: the deployment's URL and a test key. Starts `node server.mjs` on a fresh
// SQLite file behind a recording proxy, signs up a merchant through the API for its test key, runs Playwright,
// stops the server. The kit depends on nothing of the repository, so its answers are checked here instead:
// every answer of /v1 that went through the proxy (the kit's calls and the hosted page's own) is held to the
// OpenAPI document afterwards (tests/helpers/contract.ts), and a mismatch fails the run.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { checkContract } from "../tests/helpers/contract";
import { freePort } from "./lib/free-port";
import { type RecordedAnswer, startRecordingProxy } from "./lib/recording-proxy";
import { startServer } from "./lib/server-process";
import { ensureBuilt } from "./prepare.mjs";

const root = resolve(import.meta.dirname, "..");
ensureBuilt();
const dir = mkdtempSync(join(tmpdir(), "paygate-qa-kit-"));
let target = "";
const proxy = await startRecordingProxy({ port: await freePort(), target: () => target });
const server = await startServer({
  name: "qa-kit",
  env: {
    DATABASE_URL: `file:${join(dir, "qa.db")}`,
    APP_SECRET: "qa-kit-app-secret-0123456789abcdefghijklmnopqrstuvwxyz",
    WEB_CONCURRENCY: "1",
    LOG_LEVEL: "warn",
    // Links the service writes (checkoutUrl) lead through the proxy too.
    PUBLIC_BASE_URL: proxy.url,
    // The webhook retry example sees its retry within the kit's 2 s budget of waiting.
    WEBHOOK_RETRY_SCHEDULE: "1,1,1",
  },
});
target = server.url;
let status = 1;
try {
  const signup = await fetch(`${proxy.url}/v1/merchants/auth/signup`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      businessName: "QA Shop",
      email: "qa@example.com",
      password: "correct horse battery staple",
    }),
  });
  if (signup.status !== 201) throw new Error(`signup answered ${signup.status}: ${await signup.text()}`);
  const key = ((await signup.json()) as { data: { keys: { test: { secretKey: string } } } }).data.keys.test
    .secretKey;
  await warmUp(proxy.url, key);
  // Not spawnSync: the proxy answers from this process's event loop while Playwright runs.
  const run = spawn(
    process.execPath,
    [
      join(root, "node_modules/@playwright/test/cli.js"),
      "test",
      "-c",
      "qa-kit/examples",
      ...process.argv.slice(2),
    ],
    { cwd: root, stdio: "inherit", env: { ...process.env, PAYGATE_URL: proxy.url, PAYGATE_TEST_KEY: key } },
  );
  status = await new Promise<number>((done) => run.once("exit", (code) => done(code ?? 1)));
  const violations = await contractViolations(server.url, proxy.answers);
  console.log(`${proxy.answers.length} answers of /v1 checked against the OpenAPI document.`);
  if (violations.length > 0) {
    console.error(`Answers the OpenAPI document does not describe:\n${violations.join("\n")}`);
    status = 1;
  }
} finally {
  await proxy.close();
  await server.stop();
  rmSync(dir, { recursive: true, force: true });
}
process.exit(status);

async function contractViolations(base: string, answers: RecordedAnswer[]): Promise<string[]> {
  const found: string[] = [];
  for (const a of answers) {
    let body: unknown;
    try {
      body = a.contentType.includes("json") ? JSON.parse(a.body.toString("utf8")) : undefined;
    } catch {
      body = undefined;
    }
    try {
      await checkContract(base, a.method, a.path, a.status, body);
    } catch (err) {
      found.push(`  ${(err as Error).message}`);
    }
  }
  return found;
}

/**
 * A deployment QA tests against has served pages before: one checkout page, loaded once here, keeps the first
 * example from paying this fresh server's first-request costs out of its 2 s budget of waiting.
 */
async function warmUp(base: string, key: string) {
  const res = await fetch(`${base}/v1/payment/initialize`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-api-key": key },
    body: JSON.stringify({ amount: "100.00", email: "warm-up@example.com" }),
  });
  const { data } = (await res.json()) as { data: { checkoutUrl: string } };
  await (await fetch(data.checkoutUrl)).text();
}
