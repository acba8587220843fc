import { describe, expect, it } from "vitest";
import { client, initialize, randomAddress, signup, targets } from "./helpers/api";
import { testDb } from "./helpers/db";

describe.each(targets)("verify and checkout endpoints on $name", (target) => {
  const api = client(target.url);

  it("GET /v1/payment/verify/{reference} answers the verified transaction, field by field", async () => {
    const m = await signup(api);
    const init = await initialize(api, m.testKey, {
      amount: "2500.50",
      email: "buyer@example.com",
      customerName: "Ada",
      metadata: { orderId: "A-1", nested: { ok: true } },
    });
    const res = await api.get(`/v1/payment/verify/${init.body.data.reference}`, { "x-api-key": m.testKey });
    expect(res.status).toBe(200);
    expect(res.body.status).toBe("success");
    const d = res.body.data;
    expect(d.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(d).toEqual({
      id: d.id,
      reference: init.body.data.reference,
      amount: "2500.50",
      total: null,
      amountSettled: null,
      currency: "NGN",
      status: "pending",
      channel: null,
      fees: null,
      merchantBearsCost: false,
      paidAt: null,
      metadata: { orderId: "A-1", nested: { ok: true } },
      // The customer of the payment's email, made on first use (docs/customers.md).
      customer: {
        code: expect.stringMatching(/^CUS_[0-9A-Z]{20}$/),
        email: "buyer@example.com",
        name: "Ada",
      },
      authorization: null,
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      amountRefunded: "0.00",
    });
  });

  it("answers 404 transaction_not_found for an unknown reference or another merchant's", async () => {
    const a = await signup(api);
    const b = await signup(api);
    const init = await initialize(api, a.testKey, { amount: "10" });
    const unknown = await api.get("/v1/payment/verify/PAY_TXN_ZZZZZZZZZZZZZZZZZZZZ", {
      "x-api-key": a.testKey,
    });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({
      status: "failed",
      error: "transaction_not_found",
      message: expect.stringContaining("PAY_TXN_ZZZZZZZZZZZZZZZZZZZZ"),
    });
    const foreign = await api.get(`/v1/payment/verify/${init.body.data.reference}`, {
      "x-api-key": b.testKey,
    });
    expect(foreign.status).toBe(404);
    expect(foreign.body.error).toBe("transaction_not_found");
  });

  it("refuses a malformed reference with validation_error and a missing key with 401", async () => {
    const m = await signup(api);
    const bad = await api.get("/v1/payment/verify/not-a-reference", { "x-api-key": m.testKey });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe("validation_error");
    expect(bad.body.message).toContain("reference must be a transaction reference");
    const noKey = await api.get("/v1/payment/verify/PAY_TXN_ZZZZZZZZZZZZZZZZZZZZ");
    expect(noKey.status).toBe(401);
    expect(noKey.body.error).toBe("invalid_api_key");
  });

  it("GET /v1/payment/checkout/verify answers the checkout record for the access code", async () => {
    const m = await signup(api);
    const init = await initialize(api, m.testKey, { amount: "700" });
    const res = await api.get("/v1/payment/checkout/verify", { "x-access-code": init.body.data.accessCode });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      status: "success",
      data: {
        reference: init.body.data.reference,
        amount: "700.00",
        total: null,
        currency: "NGN",
        status: "pending",
        channel: null,
        fees: null,
        paidAt: null,
      },
    });
  });

  it("refuses a missing, unknown or expired access code with 401 invalid_access_code", async () => {
    const m = await signup(api);
    const init = await initialize(api, m.testKey, { amount: "700" });
    const missing = await api.get("/v1/payment/checkout/verify");
    expect(missing.status).toBe(401);
    expect(missing.body.error).toBe("invalid_access_code");
    const unknown = await api.get("/v1/payment/checkout/verify", { "x-access-code": "A".repeat(27) });
    expect(unknown.status).toBe(401);
    expect(unknown.body.error).toBe("invalid_access_code");
    // The secret key is not an access code.
    const key = await api.get("/v1/payment/checkout/verify", { "x-access-code": m.testKey });
    expect(key.status).toBe(401);

    await testDb(target)
      .updateTable("transactions")
      .set({ access_expires_at: Date.now() - 1000 })
      .where("reference", "=", init.body.data.reference)
      .execute();
    const expired = await api.get("/v1/payment/checkout/verify", {
      "x-access-code": init.body.data.accessCode,
    });
    expect(expired.status).toBe(401);
    expect(expired.body).toEqual({
      status: "failed",
      error: "invalid_access_code",
      message: expect.stringContaining("expired"),
    });
  });

  it("rate limits unknown access codes per client address with 429 and Retry-After", async () => {
    const m = await signup(api);
    const init = await initialize(api, m.testKey, { amount: "700" });
    const guesser = client(target.url, { address: randomAddress() });
    const statuses: number[] = [];
    for (let i = 0; i < 35; i++) {
      const res = await guesser.get("/v1/payment/checkout/verify", {
        "x-access-code": `${"B".repeat(26)}${i % 10}`,
      });
      statuses.push(res.status);
    }
    expect(statuses.slice(0, 30).every((s) => s === 401)).toBe(true); // burst of 30
    // Tokens refill at 30 a minute, so a slow run may earn one back; the limit must still bite at once.
    expect(statuses.slice(30).filter((s) => s === 429).length).toBeGreaterThanOrEqual(4);
    expect(statuses.at(-1)).toBe(429);
    const limited = await guesser.get("/v1/payment/checkout/verify", {
      "x-access-code": init.body.data.accessCode,
    });
    expect(limited.status).toBe(429);
    expect(limited.body.error).toBe("rate_limited");
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    // Another address is not affected.
    const other = await client(target.url).get("/v1/payment/checkout/verify", {
      "x-access-code": init.body.data.accessCode,
    });
    expect(other.status).toBe(200);
  });

  it("counts unknown access codes sent in parallel, and a known code's lookups spend nothing", async () => {
    const m = await signup(api);
    const init = await initialize(api, m.testKey, { amount: "700" });
    const guesser = client(target.url, { address: randomAddress() });
    const guesses = Array.from({ length: 60 }, (_, i) =>
      guesser.get("/v1/payment/checkout/verify", { "x-access-code": `${"C".repeat(24)}${i}` }),
    );
    const answers = await Promise.all(guesses);
    // Once the budget is spent, a known code from that address waits too (its lookup holds a token until the
    // code is found). A slow run may have earned a token back (one every 2 s): spend it first, then ask at once.
    let guess = 60;
    while (
      (await guesser.get("/v1/payment/checkout/verify", { "x-access-code": `${"D".repeat(24)}${guess++}` }))
        .status !== 429
    ) {
      expect(guess, "the refilled budget is spent within a few guesses").toBeLessThan(70);
    }
    const real = await guesser.get("/v1/payment/checkout/verify", {
      "x-access-code": init.body.data.accessCode,
    });
    expect(real.status).toBe(429);
    const tried = answers.filter((r) => r.status === 401).length;
    // Burst 30, refilled at 30 a minute: a slow run may earn a token or two back, never 30.
    expect(tried).toBeGreaterThanOrEqual(30);
    expect(tried).toBeLessThanOrEqual(32);
    expect(answers.filter((r) => r.status === 429).length).toBe(60 - tried);

    // A customer's page polling its own (known) code from one address is never limited.
    const customer = client(target.url, { address: randomAddress() });
    for (let i = 0; i < 40; i++) {
      const res = await customer.get("/v1/payment/checkout/verify", {
        "x-access-code": init.body.data.accessCode,
      });
      expect(res.status, `poll ${i + 1}`).toBe(200);
    }
  });

  it("GET /v1/payment/checkout/banks lists banks with codes, by country", async () => {
    const m = await signup(api);
    const init = await initialize(api, m.testKey, { amount: "700" });
    const headers = { "x-access-code": init.body.data.accessCode };
    const ng = await api.get("/v1/payment/checkout/banks?country=NG", headers);
    expect(ng.status).toBe(200);
    const banks = ng.body.data as Array<{ code: string; name: string }>;
    expect(banks.length).toBeGreaterThanOrEqual(20);
    expect(banks).toContainEqual({ code: "058", name: "Guaranty Trust Bank" });
    expect(banks).toContainEqual({ code: "044", name: "Access Bank" });
    expect(banks).toContainEqual({ code: "057", name: "Zenith Bank" });
    for (const bank of banks) expect(Object.keys(bank).sort()).toEqual(["code", "name"]);
    const names = banks.map((b) => b.name);
    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b, "en")));

    const byDefault = await api.get("/v1/payment/checkout/banks", headers);
    expect(byDefault.body.data).toEqual(banks);
    const gh = await api.get("/v1/payment/checkout/banks?country=gh", headers);
    expect(gh.body.data).toContainEqual({ code: "040100", name: "GCB Bank" });
    const ke = await api.get("/v1/payment/checkout/banks?country=KE", headers);
    expect(ke.body.data).toContainEqual({ code: "68", name: "Equity Bank" });

    const unknown = await api.get("/v1/payment/checkout/banks?country=ZZ", headers);
    expect(unknown.status).toBe(400);
    expect(unknown.body).toEqual({
      status: "failed",
      error: "validation_error",
      message: expect.stringContaining("country must be a supported country code"),
    });
  });
});
