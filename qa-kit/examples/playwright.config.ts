// The kit's example suite. Point it at a deployment with PAYGATE_URL and PAYGATE_TEST_KEY; in this
// repository `npm run qa:examples` starts the built app and a merchant for it.
import { defineConfig, devices } from "@playwright/test";

export default defineConfig({
  testDir: ".",
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 30_000,
  reporter: [["list"]],
  outputDir: "../../test-results/qa-kit",
  use: {
    baseURL: process.env.PAYGATE_URL ?? "http://127.0.0.1:3000",
    trace: "retain-on-failure",
  },
  projects: [
    {
      name: "chromium",
      use: {
        ...devices["Desktop Chrome"],
        launchOptions: {
          executablePath: process.env.CHROME_PATH ?? "/usr/bin/chromium",
          args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"],
        },
      },
    },
  ],
});
