import { describe, expect, it } from "vitest";
import { client, initialize, production, signup, targets } from "./helpers/api";
import { testDb } from "./helpers/db";

describe.each(targets)("POST /v1/payment/initialize on $name", (target) => {
  const api = client(target.url);

  it("answers 201 with the transaction session, field by field", async () => {
    const m = await signup(api);
    const res = await initialize(api, m.testKey, {
      amount: "5000",
      email: "buyer@example.com",
      customerName: "Ada Obi",
      callbackUrl: "https://shop.example.com/return?order=42",
      description: "Order 42",
      metadata: { orderId: 42, items: [{ sku: "A1", qty: 2 }] },
    });
    expect(res.status).toBe(201);
    expect(res.headers.get("x-request-id")).toMatch(/^req_[0-9A-Za-z]{20}$/);
    expect(res.headers.get("content-type")).toContain("application/json");
    expect(res.body.status).toBe("success");
    const d = res.body.data;
    expect(Object.keys(d).sort()).toEqual(
      [
        "reference",
        "accessCode",
        "checkoutUrl",
        "amount",
        "cardFee",
        "transferFee",
        "cardTotal",
        "transferTotal",
        "currency",
        "merchantBearsCost",
        "channels",
        "status",
      ].sort(),
    );
    expect(d.reference).toMatch(/^PAY_TXN_[0-9A-Z]{20}$/);
    expect(d.accessCode).toMatch(/^[0-9A-Za-z]{27}$/);
    expect(d.checkoutUrl).toBe(`${target.url}/pay/${d.accessCode}`);
    expect(d.amount).toBe("5000.00");
    // card: 1.5% of 5000 = 75.00, plus the 100.00 flat (5000 >= 2500) = 175.00; transfer 1% = 50.00
    expect(d.cardFee).toBe("175.00");
    expect(d.transferFee).toBe("50.00");
    expect(d.cardTotal).toBe("5175.00");
    expect(d.transferTotal).toBe("5050.00");
    expect(d.currency).toBe("NGN");
    expect(d.merchantBearsCost).toBe(false);
    expect(d.channels).toEqual(["card", "bank_transfer", "bank_payment", "ussd"]);
    expect(d.status).toBe("pending");
  });

  it("stores money as integer minor units, scoped to the merchant and mode", async () => {
    const m = await signup(api);
    const res = await initialize(api, m.testKey, { amount: "1234.56" });
    const row = await testDb(target)
      .selectFrom("transactions")
      .select(["amount_minor", "card_fee_minor", "transfer_fee_minor", "merchant_id", "mode", "currency"])
      .where("reference", "=", res.body.data.reference)
      .executeTakeFirstOrThrow();
    expect(BigInt(row.amount_minor)).toBe(123456n);
    expect(BigInt(row.card_fee_minor)).toBe(1852n); // 1.5% of 1234.56 = 18.5184 -> 18.52, flat waived
    expect(BigInt(row.transfer_fee_minor)).toBe(1235n); // 12.3456 -> 12.35
    expect(row.merchant_id).toBe(m.id);
    expect(row.mode).toBe("test");
  });

  it("keeps the checkout's language (locale) on the transaction; none when it is not given", async () => {
    const m = await signup(api);
    const withLocale = await initialize(api, m.testKey, { amount: "100", locale: "ha" });
    const without = await initialize(api, m.testKey, { amount: "100" });
    expect(withLocale.status).toBe(201);
    const locales = await testDb(target)
      .selectFrom("transactions")
      .select(["reference", "locale"])
      .where("reference", "in", [withLocale.body.data.reference, without.body.data.reference])
      .execute();
    const byReference = Object.fromEntries(locales.map((r) => [r.reference, r.locale]));
    expect(byReference[withLocale.body.data.reference]).toBe("ha");
    expect(byReference[without.body.data.reference]).toBeNull();
  });

  const feeCases: Array<[string, string, string, string]> = [
    // amount, cardFee, transferFee, why
    ["2499.99", "37.50", "25.00", "just below the waiver edge: no flat fee (37.49985 -> 37.50)"],
    ["2500", "137.50", "25.00", "at the waiver edge: the 100.00 flat applies"],
    ["0.01", "0.00", "0.00", "smallest amount: fees round half-up to zero"],
    ["0.50", "0.01", "0.01", "0.0075 and 0.005 round half-up to 0.01"],
    [
      "126666.33",
      "1999.99",
      "1000.00",
      "card just below its cap (1899.99495 -> 1899.99, + 100); transfer capped",
    ],
    ["126666.34", "2000.00", "1000.00", "card reaches its cap (1899.9951 -> 1900.00, + 100)"],
    ["1000000", "2000.00", "1000.00", "both capped"],
    ["99999.99", "1600.00", "1000.00", "transfer: 999.9999 rounds up to the cap"],
    ["99949.99", "1599.25", "999.50", "transfer just below its cap"],
    ["100000000", "2000.00", "1000.00", "the maximum amount"],
  ];
  it.each(feeCases)("fees for %s NGN: card %s, transfer %s (%s)", async (amount, cardFee, transferFee) => {
    const m = await signup(api);
    const res = await initialize(api, m.testKey, { amount });
    expect(res.status).toBe(201);
    expect(res.body.data.cardFee).toBe(cardFee);
    expect(res.body.data.transferFee).toBe(transferFee);
  });

  it("uses 3.9% card and 1% transfer, uncapped, for other currencies", async () => {
    const m = await signup(api);
    const res = await initialize(api, m.testKey, { amount: "1000000.00", currency: "USD" });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ currency: "USD", cardFee: "39000.00", transferFee: "10000.00" });
    const xof = await initialize(api, m.testKey, { amount: "1001", currency: "XOF" });
    expect(xof.body.data).toMatchObject({
      amount: "1001",
      cardFee: "39",
      transferFee: "10",
      cardTotal: "1040",
    });
    const bad = await initialize(api, m.testKey, { amount: "10.5", currency: "XOF" });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain("amount");
  });

  it("when the merchant bears the cost, totals equal the amount", async () => {
    const m = await signup(api);
    const res = await initialize(api, m.testKey, { amount: "10000", merchantBearsCost: true });
    expect(res.body.data).toMatchObject({
      amount: "10000.00",
      cardFee: "250.00",
      transferFee: "100.00",
      cardTotal: "10000.00",
      transferTotal: "10000.00",
      merchantBearsCost: true,
    });
  });

  it("takes merchantBearsCost from the merchant's settings unless the request says otherwise", async () => {
    const m = await signup(api);
    const put = await api.put(
      "/v1/merchants/settings",
      { merchantBearsCost: true },
      { authorization: `Bearer ${m.accessToken}` },
    );
    expect(put.status).toBe(200);
    const byDefault = await initialize(api, m.testKey, { amount: "100" });
    expect(byDefault.body.data.merchantBearsCost).toBe(true);
    const overridden = await initialize(api, m.testKey, { amount: "100", merchantBearsCost: false });
    expect(overridden.body.data.merchantBearsCost).toBe(false);
  });

  it("offers only the merchant's enabled channels", async () => {
    const m = await signup(api);
    await api.put(
      "/v1/merchants/settings",
      { channels: ["ussd", "card"] },
      { authorization: `Bearer ${m.accessToken}` },
    );
    const res = await initialize(api, m.testKey, { amount: "100" });
    expect(res.body.data.channels).toEqual(["card", "ussd"]);
  });

  it("offers USSD only where a bank has it: not for GHS or KES payments", async () => {
    const m = await signup(api);
    const all = ["card", "bank_transfer", "bank_payment", "ussd"];
    for (const [currency, channels] of [
      ["NGN", all],
      ["USD", all],
      ["GHS", all.slice(0, 3)],
      ["KES", all.slice(0, 3)],
    ] as const) {
      const res = await initialize(api, m.testKey, { amount: "100", currency, email: "payer@example.com" });
      expect({ currency, status: res.status, channels: res.body.data?.channels }).toEqual({
        currency,
        status: 201,
        channels,
      });
    }
    // A merchant that takes USSD only cannot start a GHS payment: nothing would let the customer pay.
    await api.put(
      "/v1/merchants/settings",
      { channels: ["ussd"] },
      { authorization: `Bearer ${m.accessToken}` },
    );
    const none = await initialize(api, m.testKey, { amount: "100", currency: "GHS" });
    expect(none.status).toBe(400);
    expect(none.body).toEqual({
      status: "failed",
      error: "channel_unavailable",
      message: "None of the enabled channels (ussd) takes GHS payments.",
    });
    const rows = await testDb(target)
      .selectFrom("transactions")
      .select("id")
      .where("merchant_id", "=", m.id)
      .where("currency", "=", "GHS")
      .execute();
    expect(rows).toHaveLength(1); // only the one initialized above
  });

  it("echoes a valid distribution and refuses a bad one", async () => {
    const m = await signup(api);
    const ok = await initialize(api, m.testKey, {
      amount: "1000",
      distribution: { vendor_a: 600.5, "vendor-b": "399.50" },
    });
    expect(ok.status).toBe(201);
    expect(ok.body.data.distribution).toEqual({ vendor_a: 600.5, "vendor-b": 399.5 });

    const cases: Array<[unknown, string]> = [
      [{ a: 600, b: 400.01 }, "distribution must have values that sum to at most amount (1000.00)"],
      [{ a: 0 }, "distribution.a"],
      [{ a: -5 }, "distribution.a"],
      [{ "bad key!": 5 }, "^[A-Za-z0-9_-]{1,64}$"],
      [{ a: 1.234 }, "at most 2 decimals"],
      [{ a: 1e21 }, "distribution.a"],
      [{ a: true }, "distribution.a"],
      [{}, "at least one entry"],
    ];
    for (const [distribution, expected] of cases) {
      const res = await initialize(api, m.testKey, { amount: "1000", distribution });
      expect(res.status, JSON.stringify(distribution)).toBe(400);
      expect(res.body.error).toBe("validation_error");
      expect(res.body.message).toContain(expected);
    }
  });

  it("refuses invalid amounts with a validation_error naming the field and the rule", async () => {
    const m = await signup(api);
    const cases: Array<[unknown, string]> = [
      [5000, "amount must be a string (got number)"],
      ["-5", "amount must be a decimal string"],
      ["0", "amount must be greater than zero"],
      ["0.00", "amount must be greater than zero"],
      ["1e3", "amount must be a decimal string"],
      ["10.001", "amount must have at most 2 decimals for NGN"],
      ["1,000", "amount must be a decimal string"],
      [" 10", "amount must be a decimal string"],
      ["100000000.01", "amount must not exceed 100000000.00 NGN"],
      [undefined, "amount is required"],
    ];
    for (const [amount, message] of cases) {
      const res = await initialize(api, m.testKey, amount === undefined ? {} : { amount });
      expect(res.status, String(amount)).toBe(400);
      expect(res.body).toEqual({
        status: "failed",
        error: "validation_error",
        message: expect.stringContaining(message),
      });
    }
  });

  it("refuses other invalid fields, naming them", async () => {
    const m = await signup(api);
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ currency: "EUR" }, "currency must be one of NGN, USD, GHS, KES, ZAR, XOF"],
      [{ email: "not-an-email" }, "email must be a valid email address"],
      [{ callbackUrl: "javascript:alert(1)" }, "callbackUrl must be an absolute http(s) URL"],
      [{ callbackUrl: "ftp://example.com/x" }, "callbackUrl must be an absolute http(s) URL"],
      [{ metadata: [1, 2] }, "metadata must be"],
      [{ merchantBearsCost: "yes" }, "merchantBearsCost must be a boolean"],
      [{ amout: "5" }, 'unknown field "amout"'],
      [{ description: "x".repeat(501) }, "description"],
      [{ locale: "de" }, "locale must be one of en, fr, yo, ha, ig, pcm"],
      [{ locale: "yo-NG" }, "locale must be one of en, fr, yo, ha, ig, pcm"],
    ];
    for (const [extra, message] of cases) {
      const res = await initialize(api, m.testKey, { amount: "100", ...extra });
      expect(res.status, JSON.stringify(extra)).toBe(400);
      expect(res.body.error).toBe("validation_error");
      expect(res.body.message).toContain(message);
    }
    const list = await api.get("/v1/merchants/transactions", { authorization: `Bearer ${m.accessToken}` });
    expect(list.body.data.transactions).toHaveLength(0);
  });

  it("accepts the secret key in x-api-key and as Authorization: Bearer", async () => {
    const m = await signup(api);
    const viaHeader = await api.post("/v1/payment/initialize", { amount: "10" }, { "x-api-key": m.testKey });
    const viaBearer = await api.post(
      "/v1/payment/initialize",
      { amount: "10" },
      { authorization: `Bearer ${m.testKey}` },
    );
    expect(viaHeader.status).toBe(201);
    expect(viaBearer.status).toBe(201);
    const verify = await api.get(`/v1/payment/verify/${viaBearer.body.data.reference}`, {
      authorization: `Bearer ${m.testKey}`,
    });
    expect(verify.status).toBe(200);
  });

  it("refuses a missing, malformed, unknown, rolled or live key with 401 invalid_api_key", async () => {
    const m = await signup(api);
    const body = { amount: "10" };
    const cases: Array<[Record<string, string>, string]> = [
      [{}, "No secret key"],
      [{ "x-api-key": "sk_test_short" }, "malformed"],
      [{ "x-api-key": `sk_test_${"A".repeat(43)}` }, "unknown"],
      [{ authorization: `Basic ${Buffer.from("a:b").toString("base64")}` }, "No secret key"],
      [{ "x-api-key": m.liveKey }, "Live keys (sk_live_...) are not accepted on the staging deployment"],
    ];
    for (const [headers, message] of cases) {
      const res = await api.post("/v1/payment/initialize", body, headers);
      expect(res.status, JSON.stringify(headers)).toBe(401);
      expect(res.body).toEqual({
        status: "failed",
        error: "invalid_api_key",
        message: expect.stringContaining(message),
      });
    }
  });
});

describe("a production deployment", () => {
  const api = client(production.url);

  it("refuses test keys and accepts live keys", async () => {
    const m = await signup(api);
    const test = await initialize(api, m.testKey, { amount: "10" });
    expect(test.status).toBe(401);
    expect(test.body.error).toBe("invalid_api_key");
    expect(test.body.message).toContain(
      "Test keys (sk_test_...) are not accepted on the production deployment",
    );
    const live = await initialize(api, m.liveKey, { amount: "10" });
    expect(live.status).toBe(201);
    const verify = await api.get(`/v1/payment/verify/${live.body.data.reference}`, {
      "x-api-key": m.liveKey,
    });
    expect(verify.status).toBe(200);
    const asTest = await api.get(`/v1/payment/verify/${live.body.data.reference}`, {
      "x-api-key": m.testKey,
    });
    expect(asTest.status).toBe(401);
  });
});
