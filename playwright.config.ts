import { tmpdir } from "node:os";
import { join } from "node:path";
import { defineConfig, devices } from "@playwright/test";

import {
  demoMerchantFile,
  endWithParent,
  LIVE_BASE_URL,
  MAIN_BASE_URL,
  PAYSTACK_DOUBLE_URL,
  SHORT_WINDOW_BASE_URL,
  SHORT_WINDOW_SECONDS,
} from "./e2e/servers";

// Stopped with npm test, however it was stopped (e2e/servers.ts).
endWithParent();

// New SQLite files per run, whatever an earlier run left behind.
// The runner's id, kept in the environment so its workers (which load this file again) name the same files:
// a spec can read the demo merchant's credentials (demoMerchantFile in e2e/servers.ts).
process.env.PAYGATE_E2E_RUN_ID ??= `paygate-e2e-${process.pid}-${Date.now()}`;
const runId = process.env.PAYGATE_E2E_RUN_ID;
const database = process.env.E2E_DATABASE_URL ?? `file:${join(tmpdir(), `${runId}.db`)}`;

/** `node server.mjs` on `base` with its own database and demo-merchant file. */
function server(
  base: string,
  name: string,
  databaseUrl: string,
  windowSeconds: string,
  extra: Record<string, string> = {},
) {
  return {
    command: "node server.mjs",
    url: `${base}/v1/ping`,
    reuseExistingServer: false,
    timeout: 60_000,
    env: {
      NODE_ENV: "production",
      // One process: the browser tests drive pages, not the cluster (the HTTP suites cover that).
      WEB_CONCURRENCY: "1",
      PORT: new URL(base).port,
      HOSTNAME: "127.0.0.1",
      PUBLIC_BASE_URL: base,
      DATABASE_URL: databaseUrl,
      APP_SECRET: "e2e-app-secret-0123456789abcdefghijklmnopqrstuvwxyz",
      // The demo store (/demo) needs the demo merchant: boot creates it on this fresh database and writes
      // its test key to a file of this run's own, never over a developer's data/demo-merchant.json.
      SEED_DEMO: "1",
      DEMO_MERCHANT_FILE: demoMerchantFile(name),
      // Receipts (written as files: no SMTP_URL here) go to this run's own folder.
      RECEIPTS_DIR: join(tmpdir(), `${runId}-${name}-receipts`),
      BANK_TRANSFER_WINDOW_SECONDS: windowSeconds,
      // Every test signs its merchants up from 127.0.0.1: the suite's sign-ups are more than one address's
      // budget (20 an hour); the budget itself is tested by the HTTP suites.
      RATE_LIMIT_SIGNUP_BURST: "1000",
      RATE_LIMIT_SIGNUP_PER_HOUR: "1000",
      LOG_LEVEL: "warn",
      NEXT_TELEMETRY_DISABLED: "1",
      ...extra,
    },
  };
}

export default defineConfig({
  testDir: "./e2e",
  // The docs screenshots are made on demand (SCREENSHOTS=1), not on every run.
  testIgnore: process.env.SCREENSHOTS ? [] : ["**/screenshots.spec.ts"],
  fullyParallel: false,
  workers: 1, // 2 cores: one browser at a time
  retries: 0,
  reporter: [["list"], ["json"]],
  outputDir: "test-results/e2e",
  use: { baseURL: MAIN_BASE_URL, trace: "retain-on-failure" },
  projects: [
    {
      name: "chromium",
      use: {
        ...devices["Desktop Chrome"],
        launchOptions: {
          executablePath: process.env.CHROME_PATH ?? "/usr/bin/chromium",
          args: [
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
          ],
        },
      },
    },
  ],
  webServer: [
    // (The docs screenshots run with BANK_TRANSFER_WINDOW_SECONDS=1800 too: a real-looking countdown.)
    server(MAIN_BASE_URL, "main", database, "1800"),
    server(
      SHORT_WINDOW_BASE_URL,
      "short-window",
      `file:${join(tmpdir(), `${runId}-short-window.db`)}`,
      String(SHORT_WINDOW_SECONDS),
      // Unknown-code budget: 30 per 5 s window instead of per minute, so the rate-limit test sees it refill.
      { RATE_LIMIT_ACCESS_CODE_PER_MINUTE: "360" },
    ),
    // Live mode: a production deployment whose Paystack is the double (e2e/checkout/live-paystack.spec.ts).
    {
      command: "node --import tsx lib/rails/paystack/double/serve.ts",
      url: `${PAYSTACK_DOUBLE_URL}/__double/violations`,
      reuseExistingServer: false,
      timeout: 60_000,
      env: {
        PORT: new URL(PAYSTACK_DOUBLE_URL).port,
        HOSTNAME: "127.0.0.1",
        PAYSTACK_DOUBLE_CALLBACK_URL: `${LIVE_BASE_URL}/pay/return/paystack`,
      },
    },
    server(LIVE_BASE_URL, "live", `file:${join(tmpdir(), `${runId}-live.db`)}`, "1800", {
      PAYMENTS_ENV: "production",
      SEED_DEMO: "0",
      PAYSTACK_BASE_URL: PAYSTACK_DOUBLE_URL,
    }),
  ],
});
