import { describe, expect, it } from "vitest";
import { demoMerchantFileFor, EnvError, parseEnv } from "./env";

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

describe("the demo merchant's credentials file (demoMerchantFileFor)", () => {
  it("sits beside a SQLite file, named after it", () => {
    expect(demoMerchantFileFor("file:data/paygate.db")).toBe("data/paygate.demo-merchant.json");
    expect(demoMerchantFileFor("file:/tmp/run-1/shop.sqlite3")).toBe("/tmp/run-1/shop.demo-merchant.json");
    expect(demoMerchantFileFor("file:/tmp/run-1/shop.sqlite")).toBe("/tmp/run-1/shop.demo-merchant.json");
    expect(demoMerchantFileFor("file:/tmp/run-1/shop")).toBe("/tmp/run-1/shop.demo-merchant.json");
    // Two files in one folder keep two credentials files.
    expect(demoMerchantFileFor("file:data/a.db")).not.toBe(demoMerchantFileFor("file:data/b.db"));
  });

  it("for PostgreSQL, is named after host, port and database, never the user or password", () => {
    expect(demoMerchantFileFor("postgres://pay:s3cret@db.internal:6543/shop")).toBe(
      "data/demo-merchant.db.internal-6543-shop.json",
    );
    // The default port and database are written out, so both spellings of one database share a file.
    expect(demoMerchantFileFor("postgres://pay@db.internal/shop")).toBe(
      demoMerchantFileFor("postgres://other@db.internal:5432/shop"),
    );
    expect(demoMerchantFileFor("postgresql://127.0.0.1")).toBe(
      "data/demo-merchant.127.0.0.1-5432-postgres.json",
    );
    expect(demoMerchantFileFor("postgres://u:p@h:5432/shop?sslmode=require")).toBe(
      "data/demo-merchant.h-5432-shop.json",
    );
    expect(demoMerchantFileFor("postgres://u:s3cret@h/shop")).not.toContain("s3cret");
    // Another database, port or host on the same machine: another file.
    const names = new Set(
      [
        "postgres://u@h:5432/a",
        "postgres://u@h:5432/b",
        "postgres://u@h:5433/a",
        "postgres://u@other:5432/a",
      ].map(demoMerchantFileFor),
    );
    expect(names.size).toBe(4);
  });

  it("for PostgreSQL, keeps to one file name inside data/ whatever the host or database is called", () => {
    for (const url of [
      "postgres://u@[::1]:5432/shop",
      "postgres://u@h/..%2F..%2Fetc",
      "postgres://u@h/a%20b",
    ]) {
      const file = demoMerchantFileFor(url);
      expect(file, url).toMatch(/^data\/demo-merchant\.[A-Za-z0-9._-]+\.json$/);
    }
  });

  it("is the default of DEMO_MERCHANT_FILE, which names another file when set", () => {
    expect(parseEnv({ DATABASE_URL: "file:/srv/pay/main.db" }).DEMO_MERCHANT_FILE).toBe(
      "/srv/pay/main.demo-merchant.json",
    );
    expect(parseEnv({ DATABASE_URL: "postgres://u@db/pay" }).DEMO_MERCHANT_FILE).toBe(
      "data/demo-merchant.db-5432-pay.json",
    );
    expect(parseEnv({ DEMO_MERCHANT_FILE: "/tmp/demo.json" }).DEMO_MERCHANT_FILE).toBe("/tmp/demo.json");
    expect(parseEnv({ DEMO_MERCHANT_FILE: "" }).DEMO_MERCHANT_FILE).toBe("data/paygate.demo-merchant.json");
  });
});
