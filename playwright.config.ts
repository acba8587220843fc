import { tmpdir } from "node:os";
import { join } from "node:path";
import { defineConfig, devices } from "@playwright/test";

const PORT = Number(process.env.E2E_PORT ?? 3100);
const baseURL = `http://127.0.0.1:${PORT}`;
// A new SQLite file per run, whatever an earlier run left behind.
const runId = `paygate-e2e-${process.pid}-${Date.now()}`;
const database = process.env.E2E_DATABASE_URL ?? `file:${join(tmpdir(), `${runId}.db`)}`;

export default defineConfig({
  testDir: "./e2e",
  fullyParallel: false,
  workers: 1, // 2 cores: one browser at a time
  retries: 0,
  reporter: [["list"], ["json"]],
  outputDir: "test-results/e2e",
  use: { baseURL, trace: "retain-on-failure" },
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
  webServer: {
    command: "node server.mjs",
    url: `${baseURL}/v1/ping`,
    reuseExistingServer: false,
    timeout: 60_000,
    env: {
      NODE_ENV: "production",
      PORT: String(PORT),
      HOSTNAME: "127.0.0.1",
      PUBLIC_BASE_URL: baseURL,
      DATABASE_URL: database,
      APP_SECRET: "e2e-app-secret-0123456789abcdefghijklmnopqrstuvwxyz",
      // The demo store (/demo) needs the demo merchant: boot creates it on this fresh database and writes
      // its test key to a file of this run's own, never over a developer's data/demo-merchant.json.
      SEED_DEMO: "1",
      DEMO_MERCHANT_FILE: join(tmpdir(), `${runId}-demo-merchant.json`),
      // Short virtual-account windows, so the expiry flow runs in seconds (e2e/checkout/bank-transfer.spec.ts).
      // (The README screenshots run with a real-looking window: BANK_TRANSFER_WINDOW_SECONDS=1800.)
      BANK_TRANSFER_WINDOW_SECONDS: process.env.BANK_TRANSFER_WINDOW_SECONDS ?? "10",
      LOG_LEVEL: "warn",
      NEXT_TELEMETRY_DISABLED: "1",
    },
  },
});
