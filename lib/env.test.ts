import { describe, expect, it } from "vitest";
import { EnvError, parseEnv } from "./env";

function refusal(source: Record<string, string>): string {
  try {
    parseEnv(source);
  } catch (err) {
    if (err instanceof EnvError) return err.message;
    throw err;
  }
  throw new Error("expected the configuration to be refused");
}

describe("configuration (lib/env.ts)", () => {
  it("defaults to staging on the embedded SQLite file, port 3000, checkout on localhost", () => {
    const env = parseEnv({});
    expect(env.PORT).toBe(3000);
    expect(env.DATABASE_URL).toBe("file:data/paygate.db");
    expect(env.PAYMENTS_ENV).toBe("staging");
    expect(env.PUBLIC_BASE_URL).toBe("http://localhost:3000");
    expect(parseEnv({ PORT: "" }).PORT).toBe(3000); // empty is unset, as server.mjs reads it
    expect(env.WEBHOOK_RETRY_SCHEDULE).toEqual([5, 300, 1800, 7200, 18000, 36000, 50400, 72000, 86400]);
  });

  it("takes PostgreSQL URLs and a public base URL without its trailing slash", () => {
    const env = parseEnv({
      DATABASE_URL: "postgres://u@db:5432/pay",
      PUBLIC_BASE_URL: "https://pay.example.com/",
      PORT: "8080",
    });
    expect(env.DATABASE_URL).toBe("postgres://u@db:5432/pay");
    expect(env.PUBLIC_BASE_URL).toBe("https://pay.example.com");
    expect(env.PORT).toBe(8080);
  });

  it("names every wrong variable and its rule in one message", () => {
    const message = refusal({
      PORT: "99999",
      DATABASE_URL: "mysql://x",
      PUBLIC_BASE_URL: "ftp://x",
      PAYMENTS_ENV: "prod",
      WEBHOOK_RETRY_SCHEDULE: "5,x",
    });
    expect(message).toMatch(/^Invalid configuration:\n/);
    expect(message).toContain("PORT: must be a whole number from 1 to 65535");
    expect(message).toContain("DATABASE_URL: must start with file: (SQLite) or postgres:// (PostgreSQL)");
    expect(message).toContain("PUBLIC_BASE_URL: must be an http(s) URL");
    expect(message).toMatch(/PAYMENTS_ENV: .*"staging"\|"production"/);
    expect(message).toContain("WEBHOOK_RETRY_SCHEDULE: must be comma-separated whole seconds");
    expect(refusal({ PORT: "http" })).toContain("PORT: must be a whole number from 1 to 65535");
  });

  it("refuses production without APP_SECRET, and a short one anywhere", () => {
    expect(refusal({ PAYMENTS_ENV: "production" })).toContain(
      "APP_SECRET: is required when PAYMENTS_ENV=production",
    );
    expect(refusal({ APP_SECRET: "short" })).toContain("APP_SECRET: must be at least 32 characters");
    expect(parseEnv({ PAYMENTS_ENV: "production", APP_SECRET: "x".repeat(32) }).PAYMENTS_ENV).toBe(
      "production",
    );
  });
});
