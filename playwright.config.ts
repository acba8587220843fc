import { tmpdir } from "node:os";
import { join } from "node:path";
import { defineConfig, devices } from "@playwright/test";

const PORT = Number(process.env.E2E_PORT ?? 3100);
const baseURL = `http://127.0.0.1:${PORT}`;
// A new SQLite file per run, whatever an earlier run left behind.
const database = process.env.E2E_DATABASE_URL ?? `file:${join(tmpdir(), `paygate-e2e-${process.pid}-${Date.now()}.db`)}`;

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
      SEED_DEMO: "0",
      LOG_LEVEL: "warn",
      NEXT_TELEMETRY_DISABLED: "1",
    },
  },
});
