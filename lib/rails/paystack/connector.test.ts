import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { DOUBLE_ACCOUNTS, DOUBLE_CARDS, DOUBLE_OTP, DOUBLE_PIN } from "./double/catalogue";
import { type PaystackDouble, startPaystackDouble } from "./double/server";

/**
 * The connector against the double, in process and without a database: every call it makes passes the
 * vendored document's validation (afterEach: double.assertClean), and each of Paystack's answers maps to the
 * outcome the channels expect. The HTTP suite (tests/paystack.test.ts) runs the same flows through the app.
 */
const KEY = "sk_test_0123456789abcdef0123456789abcdef01234567";
let double: PaystackDouble;
let rails: import("@/lib/rails/types").Rails;
let paystackReference: (reference: string, attemptId: string) => string;

beforeAll(async () => {
  double = await startPaystackDouble({ lostAnswerMs: 1_500 });
  double.addKey(KEY, "http://127.0.0.1:1/unused");
  process.env.PAYSTACK_BASE_URL = double.url;
  process.env.PAYSTACK_TIMEOUT_MS = "500";
  ({ paystackReference } = await import("./references"));
  const { paystackRails } = await import("./connector");
  rails = paystackRails({ secretKey: KEY, source: "deployment" });
});
afterEach(() => double.assertClean());
afterAll(() => double.close());

let n = 0;
const attempt = () => `0b5f6c7e-8a9b-4c1d-9e2f-${String(++n).padStart(12, "0")}`;
const REF = "PAY_TXN_8Q2M4K7ZP1XW3N5R6T9Y";
const card = (number: string) => ({ number, expiryMonth: 9, expiryYear: 2031, cvv: "408" });
const charge = (number: string, attemptId = attempt()) =>
  rails.card.authorize({
    attemptId,
    card: card(number),
    amountMinor: 505_000n,
    currency: "NGN",
    reference: REF,
    email: "payer@example.com",
  });

describe("Paystack connector (saved cards: POST /transaction/charge_authorization)", () => {
  /** A card paid once, and the reusable authorization Paystack gave for it. */
  async function saved(number: string): Promise<string> {
    const paid = await charge(number);
    if (paid.kind !== "success" || !paid.reusable)
      throw new Error(`no reusable card: ${JSON.stringify(paid)}`);
    return paid.reusable.token;
  }
  const chargeSaved = (token: string, attemptId = attempt()) =>
    rails.card.chargeAuthorization({
      attemptId,
      token,
      amountMinor: 250_000n,
      currency: "NGN",
      reference: REF,
      email: "payer@example.com",
    });

  it("charges the authorization under the attempt's own reference: success, then a decline with its reason", async () => {
    const id = attempt();
    const token = await saved(DOUBLE_CARDS.success);
    expect(await chargeSaved(token, id)).toMatchObject({
      kind: "success",
      authorization: paystackReference(REF, id),
    });
    expect(double.charge(paystackReference(REF, id))).toMatchObject({ amount: 250_000, status: "success" });
    expect(await chargeSaved(await saved(DOUBLE_CARDS.savesThenDeclines))).toMatchObject({
      kind: "failed",
      reason: "card_declined",
    });
  });

  it("send_otp and open_url are steps for the customer; the OTP is submitted as any charge's", async () => {
    const otp = await chargeSaved(await saved(DOUBLE_CARDS.savesThenOtp));
    expect(otp).toMatchObject({ kind: "action_required", step: "otp" });
    if (otp.kind !== "action_required") throw new Error("no step");
    expect(
      await rails.card.submitStep({
        attemptId: "x",
        authorization: otp.authorization,
        answer: { step: "otp", otp: DOUBLE_OTP },
      }),
    ).toMatchObject({ kind: "success" });
    const page = await chargeSaved(await saved(DOUBLE_CARDS.savesThen3ds));
    expect(page).toMatchObject({
      kind: "action_required",
      step: "redirect",
      url: expect.stringContaining("/__double/3ds/"),
    });
  });

  it("pending is undecided; asked again, Paystack has decided", async () => {
    const id = attempt();
    expect(await chargeSaved(await saved(DOUBLE_CARDS.savesThenPending), id)).toMatchObject({
      kind: "pending",
    });
    expect(await rails.card.cardStatus({ attemptId: id, reference: REF })).toMatchObject({ kind: "success" });
  });

  it("an authorization Paystack does not know (or another account's) is declined, nothing charged", async () => {
    const before = double.charges().length;
    expect(await chargeSaved("AUTH_unknown")).toMatchObject({ kind: "failed" });
    expect(double.charges().length).toBe(before);
  });
});

describe("Paystack connector (cards)", () => {
  it("sends the card and the amount in kobo as an exact integer, under the attempt's own reference", async () => {
    const id = attempt();
    expect(await charge(DOUBLE_CARDS.success, id)).toEqual({
      kind: "success",
      authorization: paystackReference(REF, id),
      // Paystack's reusable authorization of the card: what a saved card is charged again with.
      reusable: { token: expect.stringMatching(/^AUTH_/), bank: "TEST BANK" },
    });
    const made = double.charge(paystackReference(REF, id));
    expect(made).toMatchObject({ amount: 505_000, email: "payer@example.com", status: "success" });
    expect(paystackReference(REF, id)).toMatch(/^PAY-TXN-8Q2M4K7ZP1XW3N5R6T9Y\.[0-9a-f]{32}$/);
  });

  it("walks PIN then OTP to success, and maps each step", async () => {
    const first = await charge(DOUBLE_CARDS.pinThenOtp);
    expect(first).toMatchObject({ kind: "action_required", step: "pin" });
    if (first.kind !== "action_required") throw new Error("no step");
    const second = await rails.card.submitStep({
      attemptId: "x",
      authorization: first.authorization,
      answer: { step: "pin", pin: DOUBLE_PIN },
    });
    expect(second).toMatchObject({ kind: "action_required", step: "otp" });
    const third = await rails.card.submitStep({
      attemptId: "x",
      authorization: first.authorization,
      answer: { step: "otp", otp: DOUBLE_OTP },
    });
    expect(third).toMatchObject({ kind: "success" });
  });

  it("phone, birthday, address and 3-D Secure steps", async () => {
    const phone = await charge(DOUBLE_CARDS.phone);
    expect(phone).toMatchObject({ kind: "action_required", step: "phone" });
    const birthday = await charge(DOUBLE_CARDS.birthday);
    expect(birthday).toMatchObject({ kind: "action_required", step: "birthday" });
    if (birthday.kind !== "action_required") throw new Error("no step");
    expect(
      await rails.card.submitStep({
        attemptId: "x",
        authorization: birthday.authorization,
        answer: { step: "birthday", birthday: "1990-01-31" },
      }),
    ).toMatchObject({ kind: "success" });
    const address = await charge(DOUBLE_CARDS.address);
    if (address.kind !== "action_required") throw new Error("no step");
    expect(
      await rails.card.submitStep({
        attemptId: "x",
        authorization: address.authorization,
        answer: { step: "address", address: "1 Marina", city: "Lagos", state: "LA", zipCode: "101001" },
      }),
    ).toMatchObject({ kind: "success" });
    const threeDs = await charge(DOUBLE_CARDS.threeDSecure);
    expect(threeDs).toMatchObject({ kind: "action_required", step: "redirect" });
    if (threeDs.kind !== "action_required") throw new Error("no step");
    expect(threeDs.url).toContain("/__double/3ds/");
  });

  it("maps declines to the checkout's reasons; a wrong OTP is asked again, the third fails", async () => {
    expect(await charge(DOUBLE_CARDS.declined)).toMatchObject({ kind: "failed", reason: "card_declined" });
    expect(await charge(DOUBLE_CARDS.insufficient)).toMatchObject({
      kind: "failed",
      reason: "insufficient_funds",
    });
    const otp = await charge(DOUBLE_CARDS.otp);
    if (otp.kind !== "action_required") throw new Error("no step");
    const wrong = () =>
      rails.card.submitStep({
        attemptId: "x",
        authorization: otp.authorization,
        answer: { step: "otp", otp: "000000" },
      });
    // Paystack keeps the charge at send_otp after a wrong code, as long as the issuer allows another.
    expect(await wrong()).toMatchObject({ kind: "action_required", step: "otp" });
    expect(await wrong()).toMatchObject({ kind: "action_required", step: "otp" });
    expect(await wrong()).toMatchObject({ kind: "failed", reason: "invalid_otp" });
  });

  it("a lost answer (timeout, cut connection) is asked about again: the charge Paystack made is found", async () => {
    expect(await charge(DOUBLE_CARDS.lostAnswer)).toMatchObject({ kind: "success" });
    expect(await charge(DOUBLE_CARDS.dropped)).toMatchObject({ kind: "success" });
  });

  it("a 5xx that made nothing stays pending (never declared failed while Paystack may still act)", async () => {
    const id = attempt();
    expect(await charge(DOUBLE_CARDS.serverError, id)).toMatchObject({ kind: "pending" });
    expect(await rails.card.cardStatus({ attemptId: id, reference: REF })).toEqual({ kind: "unknown" });
  });

  it("pending is decided on a later look", async () => {
    const id = attempt();
    expect(await charge(DOUBLE_CARDS.pending, id)).toMatchObject({ kind: "pending" });
    expect(await rails.card.cardStatus({ attemptId: id, reference: REF })).toMatchObject({ kind: "success" });
  });

  it("authorised twice with one attempt: Paystack's duplicate reference is looked up, never a second charge", async () => {
    const id = attempt();
    const reference = paystackReference(REF, id);
    const before = double.charges().length;
    const first = await charge(DOUBLE_CARDS.pinThenOtp, id);
    expect(first).toMatchObject({ kind: "action_required", step: "pin", authorization: reference });
    // The same attempt again (a retry after a lost answer, a double submit): one charge, its state.
    expect(await charge(DOUBLE_CARDS.pinThenOtp, id)).toEqual(first);
    await rails.card.submitStep({
      attemptId: id,
      authorization: reference,
      answer: { step: "pin", pin: DOUBLE_PIN },
    });
    // Asked again after the PIN: the charge's state now (the OTP step), not a decline.
    expect(await charge(DOUBLE_CARDS.pinThenOtp, id)).toMatchObject({
      kind: "action_required",
      step: "otp",
      authorization: reference,
    });
    expect(double.charges().length).toBe(before + 1);
    expect(double.charge(reference)).toMatchObject({ status: "send_otp", amount: 505_000 });
    const posts = double.requests().filter((r) => r.method === "POST" && r.path === "/charge");
    expect(posts.slice(-3).map((r) => r.status)).toEqual([200, 400, 400]);
    // A charge that already succeeded: the second authorisation is that success.
    const paid = attempt();
    const done = await charge(DOUBLE_CARDS.success, paid);
    expect(await charge(DOUBLE_CARDS.success, paid)).toEqual(done);
    expect(double.charges().length).toBe(before + 2);
    // A bank charge the same way: the second request is the first one's step.
    const bank = attempt();
    const ask = () =>
      rails.bankPayment.requestAuthorization({
        reference: REF,
        attemptId: bank,
        bankCode: "057",
        accountNumber: DOUBLE_ACCOUNTS.otp,
        amountMinor: 505_000n,
        currency: "NGN",
        email: "payer@example.com",
      });
    const asked = await ask();
    expect(asked.outcome).toMatchObject({ kind: "action_required", step: "otp" });
    expect(await ask()).toEqual(asked);
    expect(double.charges().length).toBe(before + 3);
  });

  it("an unreachable Paystack is a 502 processor_error: nothing was charged", async () => {
    const { paystackRails } = await import("./connector");
    const saved = process.env.PAYSTACK_BASE_URL;
    const { env } = await import("@/lib/env");
    const config = env() as { PAYSTACK_BASE_URL: string };
    // A port nothing listens on: the connection is refused, so the call cannot have reached Paystack.
    const { createServer } = await import("node:net");
    const closed = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, "127.0.0.1", () => {
        const { port } = probe.address() as { port: number };
        probe.close(() => resolve(port));
      });
    });
    config.PAYSTACK_BASE_URL = `http://127.0.0.1:${closed}`;
    try {
      await expect(
        paystackRails({ secretKey: KEY, source: "deployment" }).card.authorize({
          attemptId: attempt(),
          card: card(DOUBLE_CARDS.success),
          amountMinor: 100n,
          currency: "NGN",
          reference: REF,
          email: "a@b.co",
        }),
      ).rejects.toMatchObject({ code: "processor_error" });
    } finally {
      config.PAYSTACK_BASE_URL = saved as string;
    }
  });

  it("a key Paystack refuses is a processor_error naming the connection", async () => {
    const { paystackRails } = await import("./connector");
    const other = paystackRails({
      secretKey: "sk_test_notregisteredatthedouble0000000000",
      source: "merchant",
    });
    await expect(
      other.card.authorize({
        attemptId: attempt(),
        card: card(DOUBLE_CARDS.success),
        amountMinor: 100n,
        currency: "NGN",
        reference: REF,
        email: "a@b.co",
      }),
    ).rejects.toMatchObject({ code: "processor_error", message: expect.stringMatching(/Invalid key/) });
  });
});

describe("Paystack connector (transfer, bank, USSD, refunds)", () => {
  it("a temporary account whose expiry is the earlier of ours and Paystack's", async () => {
    const expiresAt = Date.now() + 30 * 60_000;
    const account = await rails.transfer.issueVirtualAccount({
      reference: REF,
      attemptId: attempt(),
      accountName: "Paygate/Shop",
      amountMinor: 505_000n,
      currency: "NGN",
      email: "payer@example.com",
      expiresAt,
    });
    expect(account.accountNumber).toMatch(/^\d{10}$/);
    expect(account.expiresAt).toBe(expiresAt);
  });

  it("bank charges: approval in the app, OTP, birthday then OTP, the bank's page, a refusal", async () => {
    const ask = (accountNumber: string) =>
      rails.bankPayment.requestAuthorization({
        reference: REF,
        attemptId: attempt(),
        bankCode: "057",
        accountNumber,
        amountMinor: 505_000n,
        currency: "NGN",
        email: "payer@example.com",
      });
    expect((await ask(DOUBLE_ACCOUNTS.approveInApp)).outcome).toMatchObject({ kind: "waiting" });
    const otp = await ask(DOUBLE_ACCOUNTS.otp);
    expect(otp.outcome).toMatchObject({ kind: "action_required", step: "otp" });
    expect(
      await rails.bankPayment.submitStep({
        attemptId: "x",
        requestId: otp.requestId,
        answer: { step: "otp", otp: DOUBLE_OTP },
      }),
    ).toEqual({ kind: "success" });
    const birthday = await ask(DOUBLE_ACCOUNTS.birthdayThenOtp);
    expect(birthday.outcome).toMatchObject({ kind: "action_required", step: "birthday" });
    expect(
      await rails.bankPayment.submitStep({
        attemptId: "x",
        requestId: birthday.requestId,
        answer: { step: "birthday", birthday: "1985-06-15" },
      }),
    ).toMatchObject({ kind: "action_required", step: "otp" });
    expect((await ask(DOUBLE_ACCOUNTS.internetBanking)).outcome).toMatchObject({
      kind: "action_required",
      step: "redirect",
    });
    expect((await ask(DOUBLE_ACCOUNTS.invalid)).outcome).toMatchObject({ kind: "failed" });
  });

  it("USSD: Paystack's 737/919/822/966 codes only", async () => {
    const code = await rails.ussd.createCode({
      reference: REF,
      attemptId: attempt(),
      bankCode: "058",
      ussdShortCode: "*737#",
      phoneNumber: "08031234567",
      amountMinor: 505_000n,
      currency: "NGN",
      email: "payer@example.com",
    });
    expect(code.ussdCode).toMatch(/^\*737\*/);
    await expect(
      rails.ussd.createCode({
        reference: REF,
        attemptId: attempt(),
        bankCode: "044",
        ussdShortCode: "*901#",
        phoneNumber: "08031234567",
        amountMinor: 1n,
        currency: "NGN",
        email: "payer@example.com",
      }),
    ).rejects.toMatchObject({ code: "validation_error" });
  });

  it("refunds: asked once per refund id, even when asked again; settled by GET /refund/{id}", async () => {
    const id = attempt();
    await charge(DOUBLE_CARDS.success, id);
    const chargeReference = paystackReference(REF, id);
    const ask = () =>
      rails.refunds.refund({
        refundId: "rfd_abc",
        amountMinor: 200_000n,
        currency: "NGN",
        reference: REF,
        chargeReference,
        createdAt: Date.now(),
      });
    const first = await ask();
    const again = await ask();
    expect(again.railReference).toBe(first.railReference);
    expect(double.refunds().filter((r) => r.chargeReference === chargeReference)).toHaveLength(1);
    expect(
      await rails.refunds.refundStatus({ refundId: "rfd_abc", railReference: first.railReference }),
    ).toEqual({
      status: "pending",
    });
    await double.settleRefund(Number(first.railReference), "processed").catch(() => {});
    expect(
      await rails.refunds.refundStatus({ refundId: "rfd_abc", railReference: first.railReference }),
    ).toEqual({
      status: "processed",
    });
    // More than is left: Paystack refuses, for good (RailRefusal), not "try again".
    await expect(
      rails.refunds.refund({
        refundId: "rfd_too_much",
        amountMinor: 400_000n,
        currency: "NGN",
        reference: REF,
        chargeReference,
        createdAt: Date.now(),
      }),
    ).rejects.toMatchObject({ name: "RailRefusal" });
  });
});

describe("the double's own answers", () => {
  it("match the document's response schemas on every read the connector or the webhook may make", async () => {
    const id = attempt();
    await charge(DOUBLE_CARDS.success, id);
    const reference = paystackReference(REF, id);
    const made = double.charge(reference);
    const get = (path: string) =>
      fetch(`${double.url}${path}`, { headers: { authorization: `Bearer ${KEY}` } });
    for (const path of [
      `/charge/${reference}`,
      `/transaction/verify/${reference}`,
      `/transaction/${made?.id}`,
      "/balance",
      "/refund?perPage=10&page=1",
    ]) {
      expect((await get(path)).status, path).toBe(200);
    }
    expect((await get("/charge/PAY-TXN-NONE.0")).status).toBe(404);
    // afterEach: double.assertClean() fails on any answer the document does not describe.
  });
});

describe("the double holds requests to the document", () => {
  it("refuses a request the document does not allow, and records it", async () => {
    const res = await fetch(`${double.url}/charge`, {
      method: "POST",
      headers: { authorization: `Bearer ${KEY}`, "content-type": "application/json" },
      body: JSON.stringify({ email: "a@b.co", amount: "5000", amout: 1 }),
    });
    expect(res.status).toBe(400);
    const seen = double.violations();
    expect(seen.join("\n")).toMatch(/amount.*integer|must be integer/);
    expect(seen.join("\n")).toMatch(/body\.amout is not a property/);
    const unsigned = await fetch(`${double.url}/balance`);
    expect(unsigned.status).toBe(400);
    expect(double.violations().join("\n")).toMatch(/bearerAuth/);
    const unknown = await fetch(`${double.url}/charge/submit_token`, { method: "POST" });
    expect(unknown.status).toBe(404);
    const query = await fetch(`${double.url}/refund?transaction=abc`, {
      headers: { authorization: `Bearer ${KEY}` },
    });
    expect(query.status).toBe(400);
    expect(double.violations().join("\n")).toMatch(/query parameter transaction is not in the document/);
    const badCard = await fetch(`${double.url}/charge`, {
      method: "POST",
      headers: { authorization: `Bearer ${KEY}`, "content-type": "application/json" },
      body: JSON.stringify({
        email: "a@b.co",
        amount: 5000,
        card: { number: "4084084084084081", cvv: "408" },
      }),
    });
    expect(badCard.status).toBe(400);
    expect(() => double.assertClean()).toThrow(/body\.card is not the shape/);
  });
});
