import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

const alias = { "@": fileURLToPath(new URL("./", import.meta.url)) };

export default defineConfig({
  resolve: { alias },
  test: {
    environment: "node",
    testTimeout: 60_000,
    hookTimeout: 60_000,
    maxWorkers: 2,
    projects: [
      {
        resolve: { alias },
        // The OpenAPI document's tests compile every answer's schema: seconds of work on a busy machine.
        test: {
          name: "unit",
          include: ["lib/**/*.test.ts", "scripts/**/*.test.ts"],
          environment: "node",
          testTimeout: 30_000,
        },
      },
      {
        // The server SDK's own unit tests (sdk/node); the SDK against the service is in tests/sdk*.test.ts.
        test: { name: "sdk", include: ["sdk/node/test/**/*.test.ts"], environment: "node" },
      },
      {
        resolve: { alias },
        test: {
          name: "integration",
          include: ["tests/**/*.test.ts"],
          environment: "node",
          // Starts the built app once per database (SQLite always, PostgreSQL when TEST_DATABASE_URL is set).
          globalSetup: ["tests/setup/servers.ts"],
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
