// npm run qa:examples: the QA kit's example suite (qa-kit/examples) against the built app, holding nothing but
// what a merchant's QA team holds: the deployment's URL and a test key. Starts `node server.mjs` on a fresh
// SQLite file, signs up a merchant through the API for its test key, runs Playwright, stops the server.
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { startServer } from "./lib/server-process";
import { ensureBuilt } from "./prepare.mjs";

const root = resolve(import.meta.dirname, "..");
ensureBuilt();
const dir = mkdtempSync(join(tmpdir(), "paygate-qa-kit-"));
const server = await startServer({
  name: "qa-kit",
  env: {
    DATABASE_URL: `file:${join(dir, "qa.db")}`,
    APP_SECRET: "qa-kit-app-secret-0123456789abcdefghijklmnopqrstuvwxyz",
    WEB_CONCURRENCY: "1",
    LOG_LEVEL: "warn",
  },
});
let status = 1;
try {
  const signup = await fetch(`${server.url}/v1/merchants/auth/signup`, {
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
  const run = spawnSync(
    process.execPath,
    [
      join(root, "node_modules/@playwright/test/cli.js"),
      "test",
      "-c",
      "qa-kit/examples",
      ...process.argv.slice(2),
    ],
    { cwd: root, stdio: "inherit", env: { ...process.env, PAYGATE_URL: server.url, PAYGATE_TEST_KEY: key } },
  );
  status = run.status ?? 1;
} finally {
  await server.stop();
  rmSync(dir, { recursive: true, force: true });
}
process.exit(status);
