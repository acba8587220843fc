import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

// This file owns the process's database: point DATABASE_URL at a temp file before lib/db/client opens it.
const dir = mkdtempSync(join(tmpdir(), "paygate-load-checkout-"));
process.env.DATABASE_URL = `file:${join(dir, "db.sqlite")}`;
process.env.APP_SECRET = "load-checkout-test-secret-0123456789abcdefghijklmnop";
process.env.PAYMENTS_ENV = "staging";
const { database, db } = await import("@/lib/db/client");
const { migrateToLatest } = await import("@/lib/db/migrate");
const { signupMerchant } = await import("@/lib/merchants/signup-merchant");
const { initializePayment } = await import("@/lib/payments/initialize-payment");
const { InitializeBody } = await import("@/lib/payments/schemas");
const { env } = await import("@/lib/env");
const { describeInstrument, loadCheckout } = await import("./load-checkout");

let address = 0;
/** A client address of its own per test: the access-code limiter counts per address. */
const freshAddress = () => `198.51.100.${++address}`;

let merchantId: string;
async function newSession(): Promise<{ accessCode: string; reference: string }> {
  const payment = InitializeBody.parse({ amount: "5000.00", email: "buyer@example.com" });
  const session = await initializePayment({ merchantId, mode: "test", payment });
  return { accessCode: session.accessCode, reference: session.reference };
}

beforeAll(async () => {
  await migrateToLatest(database().db);
  const { merchant } = await signupMerchant({
    businessName: "Load Test Shop",
    email: "load-checkout@example.com",
    password: "correct horse battery staple",
    clientAddress: null,
  });
  merchantId = merchant.id;
});

afterAll(async () => {
  await database().db.destroy();
  rmSync(dir, { recursive: true, force: true });
});

describe("loadCheckout", () => {
  it("finds a live access code's checkout", async () => {
    const { accessCode, reference } = await newSession();
    const loaded = await loadCheckout({ accessCode, clientAddress: freshAddress() });
    expect(loaded.kind).toBe("found");
    if (loaded.kind !== "found") return;
    expect(loaded.view).toMatchObject({
      accessCode,
      reference,
      amount: "5000.00",
      currency: "NGN",
      email: "buyer@example.com",
      merchant: { name: "Load Test Shop" },
      testMode: true,
    });
  });

  it("answers not_found for an access code whose access_expires_at has passed", async () => {
    const { accessCode } = await newSession();
    await db()
      .updateTable("transactions")
      .set({ access_expires_at: Date.now() - 1_000 })
      .where("access_code", "=", accessCode)
      .execute();
    expect(await loadCheckout({ accessCode, clientAddress: freshAddress() })).toEqual({ kind: "not_found" });
  });

  it("answers not_found for an unknown or malformed code", async () => {
    const clientAddress = freshAddress();
    expect(await loadCheckout({ accessCode: "AbCdEfGhIjKlMnOpQrStUvWxYz0", clientAddress })).toEqual({
      kind: "not_found",
    });
    expect(await loadCheckout({ accessCode: "not a code", clientAddress })).toEqual({ kind: "not_found" });
  });

  it("answers rate_limited, not not_found, to an address that spent its unknown-code attempts", async () => {
    const { accessCode } = await newSession();
    const clientAddress = freshAddress();
    const burst = env().RATE_LIMIT_ACCESS_CODE_BURST;
    for (let i = 0; i < burst; i++) {
      const unknown = `Unknown${String(i).padStart(20, "0")}`;
      expect((await loadCheckout({ accessCode: unknown, clientAddress })).kind).toBe("not_found");
    }
    // Even the valid link: the limiter answers before the code is looked up, and says nothing about it.
    expect(await loadCheckout({ accessCode, clientAddress })).toEqual({ kind: "rate_limited" });
    expect(await loadCheckout({ accessCode: "Unknown99999999999999999999", clientAddress })).toEqual({
      kind: "rate_limited",
    });
    // Another address is not affected.
    expect((await loadCheckout({ accessCode, clientAddress: freshAddress() })).kind).toBe("found");
  });
});

describe("the receipt's paid-with line", () => {
  it("names a card by brand and last 4, and a bank payment or transfer by its bank", () => {
    expect(describeInstrument("card", JSON.stringify({ brand: "visa", last4: "4242" }))).toBe(
      "Visa •••• 4242",
    );
    expect(describeInstrument("card", JSON.stringify({ brand: "unknown-brand" }))).toBe("Card");
    expect(describeInstrument("bank_payment", JSON.stringify({ bankCode: "058", bankName: "GTBank" }))).toBe(
      "GTBank",
    );
    expect(describeInstrument("bank_transfer", JSON.stringify({ bankName: "Wema Bank" }))).toBe("Wema Bank");
    // Details without a bank, or unreadable, name nothing rather than guess.
    expect(describeInstrument("ussd", JSON.stringify({}))).toBeNull();
    expect(describeInstrument("card", "not json")).toBeNull();
  });
});
