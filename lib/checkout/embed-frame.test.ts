import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

// This file owns the process's database: point DATABASE_URL at a temp file before lib/db/client opens it.
const dir = mkdtempSync(join(tmpdir(), "paygate-embed-frame-"));
process.env.DATABASE_URL = `file:${join(dir, "db.sqlite")}`;
process.env.APP_SECRET = "embed-frame-test-secret-0123456789abcdefghijklmnopq";
process.env.PAYMENTS_ENV = "staging";
const { database } = await import("@/lib/db/client");
const { migrateToLatest } = await import("@/lib/db/migrate");
const { signupMerchant } = await import("@/lib/merchants/signup-merchant");
const { updateSettings } = await import("@/lib/merchants/update-settings");
const { initializePayment } = await import("@/lib/payments/initialize-payment");
const { InitializeBody } = await import("@/lib/payments/schemas");
const { embedFrame } = await import("./embed-frame");

let merchantId: string;
let accessCode: string;

beforeAll(async () => {
  await migrateToLatest(database().db);
  const { merchant } = await signupMerchant({
    businessName: "Embed Frame Shop",
    email: "embed-frame@example.com",
    password: "correct horse battery staple",
    clientAddress: null,
  });
  merchantId = merchant.id;
  const payment = InitializeBody.parse({ amount: "5000.00", email: "buyer@example.com" });
  accessCode = (await initializePayment({ merchantId, mode: "test", payment })).accessCode;
});

afterAll(async () => {
  await database().db.destroy();
  rmSync(dir, { recursive: true, force: true });
});

const ask = (query: Record<string, string>, code = accessCode) =>
  embedFrame({ pathname: `/pay/${code}`, search: new URLSearchParams(query) });

describe("embedFrame", () => {
  it("frames nowhere a merchant that lists no origin", async () => {
    expect(await ask({ embed: "1", origin: "https://shop.example" })).toBeNull();
  });

  it("frames by exactly the merchant's origins when one of them asks, and by none otherwise", async () => {
    await updateSettings({ merchantId, embedOrigins: ["https://shop.example", "http://localhost:3000"] });
    expect(await ask({ embed: "1", origin: "https://shop.example" })).toEqual({
      origin: "https://shop.example",
      ancestors: ["https://shop.example", "http://localhost:3000"],
    });
    expect(await ask({ embed: "1", origin: "http://localhost:3000" })).toMatchObject({
      origin: "http://localhost:3000",
    });
    const queries: Array<Record<string, string>> = [
      {},
      { origin: "https://shop.example" },
      { embed: "0", origin: "https://shop.example" },
      { embed: "1" },
      { embed: "1", origin: "https://evil.example" },
      // Only the origin exactly as a browser writes it.
      { embed: "1", origin: "https://shop.example/" },
      { embed: "1", origin: "https://SHOP.example" },
      { embed: "1", origin: "https://shop.example https://evil.example" },
      { embed: "1", origin: "*" },
    ];
    for (const query of queries) expect(await ask(query), JSON.stringify(query)).toBeNull();
  });

  it("answers null for an unknown or malformed code, or another page", async () => {
    const query = { embed: "1", origin: "https://shop.example" };
    expect(await ask(query, "0".repeat(24))).toBeNull();
    expect(await ask(query, "%E0%A4%A")).toBeNull();
    expect(await embedFrame({ pathname: `/l/${accessCode}`, search: new URLSearchParams(query) })).toBeNull();
    expect(
      await embedFrame({ pathname: `/pay/${accessCode}/x`, search: new URLSearchParams(query) }),
    ).toBeNull();
  });
});
