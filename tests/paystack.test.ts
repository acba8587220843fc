import { createHmac, randomBytes } from "node:crypto";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "@/lib/db/client";
import { DOUBLE_ACCOUNTS, DOUBLE_CARDS, DOUBLE_OTP, DOUBLE_PIN } from "@/lib/rails/paystack/double/catalogue";
import { type PaystackDouble, startPaystackDouble } from "@/lib/rails/paystack/double/server";
import { PAYSTACK_WEBHOOK_IPS } from "@/lib/rails/paystack/shapes";
import { expectConservation, ledger } from "./helpers/channels";
import {
  type Api,
  type AppProc,
  apiClient,
  cleanupHarness,
  dbKinds,
  type FreshDatabase,
  freshDatabase,
  startApp,
  waitFor,
} from "./helpers/webhook-harness";
import type { Target } from "./setup/servers";

/**
 * Live payments through the Paystack connector, end to end: a production deployment (live keys only) whose
 * PAYSTACK_BASE_URL is the Paystack double (lib/rails/paystack/double/), on SQLite and on PostgreSQL. Every
 * request the connector sends is held to the vendored OpenAPI document (afterEach: double.assertClean()), and
 * every answer the app gives to the contract of its own document (apiClient). Covered: each channel and each
 * step Paystack asks for, 3-D Secure and the return route, lost answers and a process killed mid-charge,
 * Paystack's webhooks (credits, duplicates, forged, unsigned, stale, another account's), refunds through
 * POST /refund, and a staging deployment whose default key takes test payments to Paystack's test mode.
 */
afterAll(() => cleanupHarness(), 60_000);

const liveKey = () => `sk_live_${randomBytes(20).toString("hex")}`;
const card = (number: string) => ({
  number,
  expiryMonth: 12,
  expiryYear: new Date().getUTCFullYear() + 3,
  cvv: "408",
});

type Live = { id: string; accessToken: string; liveKey: string; paystackKey: string; api: Api };

describe.each(dbKinds)("Paystack connector on %s", (kind) => {
  let double: PaystackDouble;
  let database: FreshDatabase;
  let app: AppProc;
  let api: Api;
  let target: Target;
  const appEnv = () => ({
    PAYMENTS_ENV: "production",
    PAYSTACK_BASE_URL: double.url,
    PAYSTACK_TIMEOUT_MS: "1500",
    CARD_RECONCILE_SECONDS: "2",
    CHECKOUT_EXPIRY_SWEEP_SECONDS: "1",
    PAYSTACK_WEBHOOK_MAX_AGE_SECONDS: "86400",
    // The double's own deliveries come from 127.0.0.1; 52.31.139.75 is one of Paystack's published addresses
    // (TRUST_PROXY=1: the test says where an event comes from with X-Forwarded-For).
    PAYSTACK_WEBHOOK_ALLOWED_IPS: `127.0.0.1,${PAYSTACK_WEBHOOK_IPS[0]}`,
  });

  beforeAll(async () => {
    double = await startPaystackDouble({ lostAnswerMs: 4_000, heldAnswerMs: 120_000 });
    database = await freshDatabase(kind);
    app = await startApp({
      name: `paystack-${kind}`,
      databaseUrl: database.url,
      env: appEnv(),
    });
    api = apiClient(app.url);
    target = { name: kind, url: app.url, databaseUrl: database.url, logFile: "" };
  });
  afterEach(() => double.assertClean());
  afterAll(async () => {
    await double.close();
  });

  /** A merchant on the live deployment, its Paystack account connected (the double knows its key). */
  async function merchant(connect = true): Promise<Live> {
    const res = await api.call("POST", "/v1/merchants/auth/signup", {
      businessName: "Live Shop",
      email: `live-${Date.now()}-${randomBytes(4).toString("hex")}@example.com`,
      password: "correct horse battery staple",
    });
    expect(res.status).toBe(201);
    const m: Live = {
      id: res.body.data.merchant.id,
      accessToken: res.body.data.accessToken,
      liveKey: res.body.data.keys.live.secretKey,
      paystackKey: liveKey(),
      api,
    };
    if (connect) {
      double.addKey(m.paystackKey);
      const put = await api.call(
        "PUT",
        "/v1/merchants/paystack",
        { mode: "live", secretKey: m.paystackKey },
        { authorization: `Bearer ${m.accessToken}` },
      );
      expect(put.status, put.text).toBe(200);
      double.addKey(m.paystackKey, put.body.data.webhookUrl);
    }
    return m;
  }

  async function pay(m: Live, body: Record<string, unknown> = {}) {
    const res = await api.call(
      "POST",
      "/v1/payment/initialize",
      { amount: "5000.00", email: "payer@example.com", ...body },
      { "x-api-key": m.liveKey },
    );
    expect(res.status, res.text).toBe(201);
    return res.body.data as {
      reference: string;
      accessCode: string;
      cardTotal: string;
      transferTotal: string;
    };
  }

  const checkout = (s: { accessCode: string }) => ({
    post: (path: string, body: unknown = {}) =>
      api.call("POST", `/v1/payment/checkout/${path}`, body, { "x-access-code": s.accessCode }),
    verify: () =>
      api.call("GET", "/v1/payment/checkout/verify", undefined, { "x-access-code": s.accessCode }),
  });

  const verify = async (m: Live, reference: string) =>
    (await api.call("GET", `/v1/payment/verify/${reference}`, undefined, { "x-api-key": m.liveKey })).body
      .data;

  const kobo = (amount: string) => Number(amount.replace(".", ""));

  /** The charge the double holds for a payment (its latest attempt of a channel). */
  function chargeOf(reference: string, channel?: string) {
    const prefix = `${reference.replace(/_/g, "-")}.`;
    const found = double
      .charges()
      .filter((c) => c.reference.startsWith(prefix) && (!channel || c.channel === channel))
      .at(-1);
    if (!found) throw new Error(`no Paystack charge for ${reference}`);
    return found;
  }

  describe("credentials", () => {
    it("a live charge without a connection answers 409 live_not_connected on every channel, and charges nothing", async () => {
      const m = await merchant(false);
      const s = await pay(m);
      const co = checkout(s);
      const before = double.charges().length;
      const answers = [
        await co.post("charge/card", card(DOUBLE_CARDS.success)),
        await co.post("charge/bank-transfer"),
        await co.post("charge/bank-payment", {
          bankCode: "057",
          accountNumber: DOUBLE_ACCOUNTS.approveInApp,
        }),
        await co.post("charge/ussd", { bankCode: "058", phoneNumber: "08031234567" }),
      ];
      for (const res of answers) {
        expect(res.status).toBe(409);
        expect(res.body).toMatchObject({ status: "failed", error: "live_not_connected" });
        expect(res.body.message).toMatch(/Settings → Live payments/);
      }
      expect(double.charges()).toHaveLength(before);
      expect((await verify(m, s.reference)).status).toBe("pending");
    });

    it("connecting checks the key with Paystack once, keeps it sealed, shows its last four, replaces and removes it", async () => {
      const m = await merchant(false);
      const auth = { authorization: `Bearer ${m.accessToken}` };
      const test = await api.call(
        "PUT",
        "/v1/merchants/paystack",
        { mode: "live", secretKey: `sk_test_${"a".repeat(40)}` },
        auth,
      );
      expect(test.status).toBe(400);
      expect(test.body.message).toMatch(/secretKey must be a Paystack live secret key/);
      const staging = await api.call(
        "PUT",
        "/v1/merchants/paystack",
        { mode: "test", secretKey: `sk_test_${"a".repeat(40)}` },
        auth,
      );
      expect(staging.status).toBe(400);
      expect(staging.body.message).toMatch(/mode must be "live"/);
      const refused = await api.call(
        "PUT",
        "/v1/merchants/paystack",
        { mode: "live", secretKey: m.paystackKey },
        auth,
      );
      expect(refused.status).toBe(400);
      expect(refused.body.message).toMatch(/refused by Paystack/);
      expect(
        (await api.call("GET", "/v1/merchants/paystack?mode=live", undefined, auth)).body.data.connected,
      ).toBe(false);

      double.addKey(m.paystackKey);
      const balanceCalls = double.requests().filter((r) => r.path === "/balance").length;
      const ok = await api.call(
        "PUT",
        "/v1/merchants/paystack",
        { mode: "live", secretKey: m.paystackKey },
        auth,
      );
      expect(ok.status).toBe(200);
      expect(double.requests().filter((r) => r.path === "/balance").length).toBe(balanceCalls + 1);
      expect(ok.body.data).toMatchObject({
        connected: true,
        keyHint: `sk_live_…${m.paystackKey.slice(-4)}`,
        callbackUrl: `${app.url}/pay/return/paystack`,
      });
      expect(ok.body.data.webhookUrl).toMatch(
        /\/v1\/rails\/paystack\/webhook\?connection=psc_[0-9A-Za-z]{24}$/,
      );
      expect(ok.text).not.toContain(m.paystackKey);

      // At rest: sealed, never the key; in the logs: never.
      const handle = openDatabase(database.url);
      try {
        const row = await handle.db
          .selectFrom("processor_connections")
          .selectAll()
          .where("merchant_id", "=", m.id)
          .executeTakeFirstOrThrow();
        expect(row.secret_sealed).toMatch(/^v1\./);
        expect(JSON.stringify(row)).not.toContain(m.paystackKey.slice(8));
      } finally {
        await handle.db.destroy();
      }
      expect(app.output()).not.toContain(m.paystackKey.slice(8));

      const other = liveKey();
      double.addKey(other);
      const replaced = await api.call(
        "PUT",
        "/v1/merchants/paystack",
        { mode: "live", secretKey: other },
        auth,
      );
      expect(replaced.body.data.webhookUrl).toBe(ok.body.data.webhookUrl);
      expect(replaced.body.data.keyHint).toBe(`sk_live_…${other.slice(-4)}`);
      const removed = await api.call("POST", "/v1/merchants/paystack/disconnect", { mode: "live" }, auth);
      expect(removed.body.data).toMatchObject({ connected: false, keyHint: null });
      const s = await pay(m);
      expect((await checkout(s).post("charge/card", card(DOUBLE_CARDS.success))).body.error).toBe(
        "live_not_connected",
      );
    });
  });

  describe("card", () => {
    it("pays in kobo, exactly, under the attempt's own reference; Paystack's webhook changes nothing more", async () => {
      const m = await merchant();
      const s = await pay(m, { amount: "1234.56" });
      const res = await checkout(s).post("charge/card", card(DOUBLE_CARDS.success));
      expect(res.body.data).toMatchObject({ status: "success", card: { brand: "visa", last4: "4081" } });
      const charged = chargeOf(s.reference);
      expect(charged.amount).toBe(kobo(s.cardTotal));
      expect(charged.reference).toMatch(/^PAY-TXN-[0-9A-Z]+\.[0-9a-f]{32}$/);
      const paid = await verify(m, s.reference);
      expect(paid).toMatchObject({ status: "success", channel: "card", total: s.cardTotal });
      // charge.success arrives too: acknowledged, nothing credited twice.
      await waitFor("charge.success delivered", () => double.lastEvent()?.body.includes(charged.reference));
      await expectConservation(target, s.reference);
      expect(app.output()).not.toContain(DOUBLE_CARDS.success);
    });

    it("PIN then OTP; a wrong OTP is typed again, the third declines; phone, birthday and address steps", async () => {
      const m = await merchant();
      const s = await pay(m);
      const co = checkout(s);
      const first = await co.post("charge/card", card(DOUBLE_CARDS.pinThenOtp));
      expect(first.body.data).toMatchObject({ status: "awaiting_action", action: { step: "pin" } });
      expect((await co.verify()).body.data.action).toMatchObject({ channel: "card", step: "pin" });
      const pin = await co.post("charge/card/pin", { pin: DOUBLE_PIN });
      expect(pin.body.data).toMatchObject({ status: "awaiting_otp" });
      expect((await co.verify()).body.data.status).toBe("awaiting_otp");
      expect((await co.post("charge/card/otp", { otp: DOUBLE_OTP })).body.data.status).toBe("success");
      expect(app.output()).not.toMatch(new RegExp(`"(pin|otp)":"?${DOUBLE_PIN}`));

      // Paystack keeps a charge at send_otp after a wrong OTP: the customer types it again, the card kept.
      const retyped = await pay(m);
      await checkout(retyped).post("charge/card", card(DOUBLE_CARDS.otp));
      const once = await checkout(retyped).post("charge/card/otp", { otp: "000000" });
      expect(once.body.data).toMatchObject({
        status: "awaiting_otp",
        reason: "invalid_otp",
        otpTriesLeft: 2,
      });
      expect(chargeOf(retyped.reference, "card").status).toBe("send_otp");
      expect((await checkout(retyped).post("charge/card/otp", { otp: DOUBLE_OTP })).body.data.status).toBe(
        "success",
      );
      expect((await verify(m, retyped.reference)).status).toBe("success");

      // The third wrong OTP ends the attempt.
      const wrong = await pay(m);
      await checkout(wrong).post("charge/card", card(DOUBLE_CARDS.otp));
      for (const left of [2, 1]) {
        const again = await checkout(wrong).post("charge/card/otp", { otp: "000000" });
        expect(again.body.data).toMatchObject({ status: "awaiting_otp", otpTriesLeft: left });
      }
      const declined = await checkout(wrong).post("charge/card/otp", { otp: "000000" });
      expect(declined.body.data).toMatchObject({ status: "failed", reason: "invalid_otp" });
      expect(chargeOf(wrong.reference, "card").status).toBe("failed");
      expect((await verify(m, wrong.reference)).status).toBe("pending");

      for (const [number, step, body] of [
        [DOUBLE_CARDS.phone, "phone", { phone: "0803 123 4567" }],
        [DOUBLE_CARDS.birthday, "birthday", { birthday: "1990-01-31" }],
        [
          DOUBLE_CARDS.address,
          "address",
          { address: "1 Marina", city: "Lagos", state: "LA", zipCode: "101001" },
        ],
      ] as const) {
        const p = await pay(m);
        const c = checkout(p);
        expect((await c.post("charge/card", card(number))).body.data.action.step).toBe(step);
        // The step the network asked for, and no other.
        expect((await c.post("charge/card/pin", { pin: "1234" })).body.error).toBe("invalid_state");
        const next = await c.post(`charge/card/${step}`, body);
        expect(["success", "awaiting_otp"]).toContain(next.body.data.status);
        if (next.body.data.status === "awaiting_otp") await c.post("charge/card/otp", { otp: DOUBLE_OTP });
        expect((await verify(m, p.reference)).status).toBe("success");
      }
    });

    it("3-D Secure: the bank's page, then Paystack's callback to /pay/return/paystack reconciles and lands on the checkout", async () => {
      const m = await merchant();
      const s = await pay(m);
      const co = checkout(s);
      const res = await co.post("charge/card", card(DOUBLE_CARDS.threeDSecure));
      expect(res.body.data).toMatchObject({ status: "awaiting_action", action: { step: "redirect" } });
      const url = res.body.data.action.url as string;
      expect(url.startsWith(double.url)).toBe(true);
      // Not yet: asking changes nothing.
      expect((await co.post("charge/card/check")).body.data.status).toBe("awaiting_action");
      // The customer authenticates on the bank's page; Paystack's webhook is held back: the return decides.
      const charge = chargeOf(s.reference);
      double.muteWebhooks(true);
      await fetch(url, {
        method: "POST",
        body: "outcome=success",
        headers: { "content-type": "application/x-www-form-urlencoded" },
      });
      const back = await fetch(
        `${app.url}/pay/return/paystack?trxref=${charge.reference}&reference=${charge.reference}`,
        {
          redirect: "manual",
        },
      );
      expect(back.status).toBe(303);
      expect(back.headers.get("location")).toBe(`/pay/${s.accessCode}`);
      expect((await verify(m, s.reference)).status).toBe("success");
      double.muteWebhooks(false);
      const unknown = await fetch(`${app.url}/pay/return/paystack?reference=PAY-TXN-NOPE.${"0".repeat(32)}`, {
        redirect: "manual",
      });
      expect(unknown.status).toBe(404);
    });

    it("a charge Paystack is still deciding answers processing; the page's check settles it", async () => {
      const m = await merchant();
      const s = await pay(m);
      const co = checkout(s);
      expect((await co.post("charge/card", card(DOUBLE_CARDS.pending))).body.data.status).toBe("processing");
      // One card payment at a time while one is at the network.
      expect((await co.post("charge/card", card(DOUBLE_CARDS.success))).body.error).toBe("invalid_state");
      expect((await co.post("charge/card/check")).body.data.status).toBe("success");
      await expectConservation(target, s.reference);
    });

    it("a lost answer is asked about again at once; a 5xx that made nothing is reconciled and fails, never charged", async () => {
      const m = await merchant();
      const lost = await pay(m);
      const t0 = Date.now();
      expect((await checkout(lost).post("charge/card", card(DOUBLE_CARDS.lostAnswer))).body.data.status).toBe(
        "success",
      );
      expect(Date.now() - t0).toBeLessThan(4_000);
      const dropped = await pay(m);
      expect((await checkout(dropped).post("charge/card", card(DOUBLE_CARDS.dropped))).body.data.status).toBe(
        "success",
      );

      const broken = await pay(m);
      expect(
        (await checkout(broken).post("charge/card", card(DOUBLE_CARDS.serverError))).body.data.status,
      ).toBe("processing");
      // Card reconciliation (CARD_RECONCILE_SECONDS=2, sweep every second) asks Paystack, which never saw it.
      await waitFor(
        "the attempt reconciled",
        async () => (await ledger(target, broken.reference)).attempts.find((a) => a.status === "failed"),
        20_000,
        250,
      );
      const l = await ledger(target, broken.reference);
      expect(l.attempts[0]?.failure_reason).toBe("no_answer_from_network");
      expect((await verify(m, broken.reference)).status).toBe("pending");
      // Paid another way afterwards.
      expect((await checkout(broken).post("charge/card", card(DOUBLE_CARDS.success))).body.data.status).toBe(
        "success",
      );
    });

    it("a process killed while Paystack holds the answer: a new process reconciles the charge Paystack made, once", async () => {
      const m = await merchant();
      const s = await pay(m);
      // Paystack's webhook would settle it too: held back, so reconciliation alone must.
      double.muteWebhooks(true);
      const pending = checkout(s)
        .post("charge/card", card(DOUBLE_CARDS.heldAnswer))
        .catch(() => null);
      await waitFor("the charge reached Paystack", () =>
        double.charges().some((c) => c.reference.startsWith(s.reference.replace(/_/g, "-"))),
      );
      const killed = app;
      await killed.kill9();
      await pending;
      app = await startApp({
        name: `paystack-${kind}-restarted`,
        databaseUrl: database.url,
        env: appEnv(),
      });
      api = apiClient(app.url);
      target = { ...target, url: app.url };
      await waitFor(
        "reconciled",
        async () => (await verify(m, s.reference)).status === "success",
        30_000,
        250,
      );
      double.muteWebhooks(false);
      const l = await expectConservation(target, s.reference);
      expect(l.attempts.filter((a) => a.status === "success")).toHaveLength(1);
    });
  });

  describe("bank transfer", () => {
    it("a temporary account in our window; the exact transfer credits once, through Paystack's signed webhook", async () => {
      const m = await merchant();
      const s = await pay(m);
      const account = (await checkout(s).post("charge/bank-transfer")).body.data;
      expect(account).toMatchObject({
        status: "awaiting_transfer",
        bankName: "Test Bank",
        amount: s.transferTotal,
      });
      expect(account.expiresInSeconds).toBeGreaterThan(1700);
      // The same account inside its window, without asking Paystack again.
      const asked = double.charges().length;
      expect((await checkout(s).post("charge/bank-transfer")).body.data.accountNumber).toBe(
        account.accountNumber,
      );
      expect(double.charges().length).toBe(asked);
      const charge = chargeOf(s.reference, "bank_transfer");
      expect(charge.amount).toBe(kobo(s.transferTotal));

      const delivery = await double.transfer(charge.reference, charge.amount);
      expect(delivery.status).toBe(200);
      expect(JSON.parse(delivery.answer).data).toMatchObject({
        event: "charge.success",
        duplicate: false,
        outcome: "credited",
      });
      expect(await verify(m, s.reference)).toMatchObject({ status: "success", channel: "bank_transfer" });
      // Paystack retries (or someone replays) the same event: answered, not acted on again.
      const again = await double.sendEvent({
        body: delivery.body,
        signWith: m.paystackKey,
        url: delivery.url,
      });
      expect(JSON.parse(again.answer).data).toMatchObject({ duplicate: true, outcome: "credited" });
      await expectConservation(target, s.reference);
    });

    it("a wrong amount Paystack rejects shows as a mismatch, refunded by Paystack itself; the exact amount then pays", async () => {
      const m = await merchant();
      const s = await pay(m);
      await checkout(s).post("charge/bank-transfer");
      const charge = chargeOf(s.reference, "bank_transfer");
      const rejected = await double.transfer(charge.reference, charge.amount - 100);
      expect(rejected.status, rejected.answer).toBe(200);
      expect(JSON.parse(rejected.answer).data.outcome).toBe("rejected_amount_mismatch");
      const record = (await checkout(s).verify()).body.data;
      expect(record).toMatchObject({
        status: "awaiting_transfer",
        amountMismatch: { expected: s.transferTotal },
      });
      const l = await ledger(target, s.reference);
      expect(l.refunds).toMatchObject([{ reason: "amount_mismatch", status: "processed", rail: "paystack" }]);
      // Nothing is asked of Paystack for money it returned itself.
      expect(double.refunds().filter((r) => r.chargeReference === charge.reference)).toHaveLength(0);
      await double.transfer(charge.reference, charge.amount);
      expect((await verify(m, s.reference)).status).toBe("success");
      await expectConservation(target, s.reference);
    });

    it("money after the transaction was paid another way is refunded through POST /refund (duplicate_payment)", async () => {
      const m = await merchant();
      const s = await pay(m);
      await checkout(s).post("charge/bank-transfer");
      const transfer = chargeOf(s.reference, "bank_transfer");
      expect((await checkout(s).post("charge/card", card(DOUBLE_CARDS.success))).body.data.status).toBe(
        "success",
      );
      await double.transfer(transfer.reference, transfer.amount);
      await waitFor("refund asked of Paystack", () =>
        double.refunds().find((r) => r.chargeReference === transfer.reference),
      );
      const refund = double.refunds().find((r) => r.chargeReference === transfer.reference);
      expect(refund).toMatchObject({ amount: transfer.amount, merchantNote: expect.stringMatching(/^rfd_/) });
      await double.settleRefund(refund?.id as number, "processed");
      await waitFor("refund processed", async () =>
        (await ledger(target, s.reference)).refunds.every((r) => r.status === "processed"),
      );
      expect((await ledger(target, s.reference)).refunds).toMatchObject([
        { reason: "duplicate_payment", rail: "paystack" },
      ]);
      await expectConservation(target, s.reference);
    });
    it("a transfer after the account's expiry is rejected by Paystack, recorded as returned by it; the payment stays open", async () => {
      const m = await merchant();
      const s = await pay(m);
      await checkout(s).post("charge/bank-transfer");
      const charge = chargeOf(s.reference, "bank_transfer");
      const closes = charge.account?.expiresAt as number;
      const late = await double.transfer(charge.reference, charge.amount, closes + 60_000);
      expect(late.status, late.answer).toBe(200);
      expect(JSON.parse(late.body)).toMatchObject({
        event: "bank.transfer.rejected",
        data: { bank_transfer: { message_type: "LATE_PAYMENT" } },
      });
      expect(JSON.parse(late.answer).data.outcome).toBe("rejected_late_payment");
      expect((await verify(m, s.reference)).status).not.toBe("success");
      const l = await ledger(target, s.reference);
      expect(l.attempts.find((a) => a.channel === "bank_transfer")).toMatchObject({
        status: "failed",
        failure_reason: "window_expired",
      });
      expect(l.refunds).toMatchObject([
        { reason: "late_payment", status: "processed", rail: "paystack", amount_minor: expect.anything() },
      ]);
      expect(Number(l.refunds[0]?.amount_minor)).toBe(charge.amount);
      // Paystack returned it itself: nothing is asked of it.
      expect(double.refunds().filter((r) => r.chargeReference === charge.reference)).toHaveLength(0);
      await expectConservation(target, s.reference);
      // The customer can still pay another way.
      expect((await checkout(s).post("charge/card", card(DOUBLE_CARDS.success))).body.data.status).toBe(
        "success",
      );
      await expectConservation(target, s.reference);
    });

    it("a second transfer to a paid account is rejected by Paystack and recorded as returned (duplicate_payment), never refunded twice", async () => {
      const m = await merchant();
      const s = await pay(m);
      await checkout(s).post("charge/bank-transfer");
      const charge = chargeOf(s.reference, "bank_transfer");
      expect(JSON.parse((await double.transfer(charge.reference, charge.amount)).answer).data.outcome).toBe(
        "credited",
      );
      const second = await double.transfer(charge.reference, charge.amount);
      expect(JSON.parse(second.body).data.bank_transfer.message_type).toBe("DUPLICATE");
      expect(JSON.parse(second.answer).data.outcome).toBe("rejected_duplicate_payment");
      expect(await verify(m, s.reference)).toMatchObject({ status: "success", channel: "bank_transfer" });
      const l = await ledger(target, s.reference);
      expect(l.refunds).toMatchObject([
        { reason: "duplicate_payment", status: "processed", rail: "paystack" },
      ]);
      expect(l.inbound).toHaveLength(2);
      expect(double.refunds().filter((r) => r.chargeReference === charge.reference)).toHaveLength(0);
      await expectConservation(target, s.reference);
    });

    it("an account number Paystack hands out again: refused while the first account is open, then each payment gets its own money", async () => {
      const number = `9${String(Date.now()).slice(-9)}`;
      double.setAccountPool([number]);
      try {
        const m = await merchant();
        const first = await pay(m);
        const second = await pay(m, { amount: "4000.00" });
        expect((await checkout(first).post("charge/bank-transfer")).body.data.accountNumber).toBe(number);
        // Paystack gives the open account's number to another payment: refused, nothing to pay into, retryable.
        const busy = await checkout(second).post("charge/bank-transfer");
        expect(busy.status, busy.text).toBe(502);
        expect(busy.body).toMatchObject({ status: "failed", error: "processor_error" });
        expect(busy.body.message).toMatch(/still in use.*Try again/);
        expect((await ledger(target, second.reference)).attempts).toMatchObject([
          { channel: "bank_transfer", status: "failed", failure_reason: "account_number_in_use" },
        ]);
        // The first account's window ends (as time passing would); the number may then be handed out again.
        const handle = openDatabase(database.url);
        try {
          await handle.db
            .updateTable("virtual_accounts")
            .set({ expires_at: Date.now() - 1_000 })
            .where("account_number", "=", number)
            .execute();
        } finally {
          await handle.db.destroy();
        }
        const again = await checkout(second).post("charge/bank-transfer");
        expect(again.status, again.text).toBe(200);
        expect(again.body.data).toMatchObject({ accountNumber: number, amount: second.transferTotal });
        const secondCharge = chargeOf(second.reference, "bank_transfer");
        const firstCharge = chargeOf(first.reference, "bank_transfer");
        // Money to the number is found by its charge, never by the number: each payment gets its own.
        await double.transfer(secondCharge.reference, secondCharge.amount);
        expect(await verify(m, second.reference)).toMatchObject({
          status: "success",
          channel: "bank_transfer",
        });
        expect((await verify(m, first.reference)).status).not.toBe("success");
        const late = await double.transfer(
          firstCharge.reference,
          firstCharge.amount,
          (firstCharge.account?.expiresAt as number) + 1,
        );
        expect(JSON.parse(late.answer).data.outcome).toBe("rejected_late_payment");
        expect((await ledger(target, first.reference)).refunds).toMatchObject([
          { reason: "late_payment", status: "processed" },
        ]);
        expect((await ledger(target, second.reference)).refunds).toEqual([]);
        await expectConservation(target, first.reference);
        await expectConservation(target, second.reference);
      } finally {
        double.setAccountPool(null);
      }
    });
  });

  describe("a Paystack outage", () => {
    it("every channel answers a clear failure to try again (never a 500) and charges nothing; after it, the payment goes through", async () => {
      const m = await merchant();
      const s = await pay(m);
      const co = checkout(s);
      double.setOutage(503);
      try {
        for (const [path, body] of [
          ["charge/bank-transfer", {}],
          ["charge/bank-payment", { bankCode: "057", accountNumber: DOUBLE_ACCOUNTS.approveInApp }],
          ["charge/ussd", { bankCode: "058", phoneNumber: "08031234567" }],
        ] as const) {
          const res = await co.post(path, body);
          expect(res.status, `${path}: ${res.text}`).toBe(502);
          expect(res.body).toMatchObject({ status: "failed", error: "processor_error" });
          // A transfer account or a USSD code never shown can take no money; a bank may have been asked.
          expect(res.body.message, path).toMatch(
            path === "charge/bank-payment"
              ? /could not say whether it received this bank payment.*try again/i
              : /nothing was charged.*try again/i,
          );
        }
        // A card may have been charged behind a 5xx: it waits for Paystack (processing), never declined at once.
        const paid = await co.post("charge/card", card(DOUBLE_CARDS.success));
        expect(paid.status, paid.text).toBe(200);
        expect(paid.body.data.status).toBe("processing");
        expect((await verify(m, s.reference)).status).toBe("pending");
      } finally {
        double.setOutage(null);
      }
      expect(double.charges().filter((c) => c.reference.startsWith(s.reference.replace(/_/g, "-")))).toEqual(
        [],
      );
      // After the outage, card reconciliation learns Paystack never saw the card; the customer then pays.
      await waitFor(
        "the card attempt reconciled",
        async () =>
          (await ledger(target, s.reference)).attempts.find(
            (a) => a.channel === "card" && a.status === "failed",
          ),
        20_000,
        250,
      );
      expect((await co.post("charge/bank-transfer")).status).toBe(200);
      const charge = chargeOf(s.reference, "bank_transfer");
      await double.transfer(charge.reference, charge.amount);
      expect(await verify(m, s.reference)).toMatchObject({ status: "success", channel: "bank_transfer" });
      const l = await expectConservation(target, s.reference);
      expect(l.refunds).toEqual([]);
    });
  });

  describe("bank payment and USSD", () => {
    it("bank: approval in the app, reported by Paystack's webhook; OTP; birthday then OTP; a refusal", async () => {
      const m = await merchant();
      const s = await pay(m);
      const co = checkout(s);
      const missing = await co.post("charge/bank-payment", { bankCode: "057" });
      expect(missing.status).toBe(400);
      expect(missing.body.message).toMatch(/accountNumber is required/);
      const asked = await co.post("charge/bank-payment", {
        bankCode: "057",
        accountNumber: DOUBLE_ACCOUNTS.approveInApp,
      });
      expect(asked.body.data).toMatchObject({
        status: "awaiting_bank_authorization",
        bankName: "Zenith Bank",
      });
      expect(asked.body.data.action).toBeUndefined();
      await double.complete(chargeOf(s.reference, "bank").reference, "success");
      expect(await verify(m, s.reference)).toMatchObject({
        status: "success",
        channel: "bank_payment",
        total: s.transferTotal,
      });

      const otp = await pay(m);
      const c2 = checkout(otp);
      expect(
        (await c2.post("charge/bank-payment", { bankCode: "058", accountNumber: DOUBLE_ACCOUNTS.otp })).body
          .data.action.step,
      ).toBe("otp");
      expect((await c2.verify()).body.data.action).toMatchObject({ channel: "bank_payment", step: "otp" });
      expect((await c2.post("charge/bank-payment/otp", { otp: DOUBLE_OTP })).body.data.status).toBe(
        "success",
      );

      const birthday = await pay(m);
      const c3 = checkout(birthday);
      await c3.post("charge/bank-payment", {
        bankCode: "058",
        accountNumber: DOUBLE_ACCOUNTS.birthdayThenOtp,
      });
      expect(
        (await c3.post("charge/bank-payment/birthday", { birthday: "1985-06-15" })).body.data.action.step,
      ).toBe("otp");
      expect((await c3.post("charge/bank-payment/otp", { otp: DOUBLE_OTP })).body.data.status).toBe(
        "success",
      );

      const refused = await pay(m);
      const c4 = checkout(refused);
      const no = await c4.post("charge/bank-payment", {
        bankCode: "058",
        accountNumber: DOUBLE_ACCOUNTS.invalid,
      });
      expect(no.body.data).toMatchObject({ status: "failed", message: "Account is invalid" });
      expect((await verify(m, refused.reference)).status).toBe("pending");
      for (const ref of [s.reference, otp.reference, birthday.reference])
        await expectConservation(target, ref);
    });

    it("bank: the account's phone number then an OTP; the account's PIN; each step answered only when asked", async () => {
      const m = await merchant();
      const phone = await pay(m);
      const c1 = checkout(phone);
      const asked = await c1.post("charge/bank-payment", {
        bankCode: "058",
        accountNumber: DOUBLE_ACCOUNTS.phoneThenOtp,
      });
      expect(asked.body.data).toMatchObject({
        status: "awaiting_bank_authorization",
        action: { step: "phone", message: expect.any(String) },
      });
      expect((await c1.verify()).body.data.action).toMatchObject({ channel: "bank_payment", step: "phone" });
      // The step the bank asked for, and no other.
      const notAsked = await c1.post("charge/bank-payment/pin", { pin: DOUBLE_PIN });
      expect(notAsked).toMatchObject({ status: 409, body: { error: "invalid_state" } });
      expect(notAsked.body.message).toMatch(/waiting for a PIN/);
      const bad = await c1.post("charge/bank-payment/phone", { phone: "12" });
      expect(bad).toMatchObject({ status: 400, body: { error: "validation_error" } });
      const next = await c1.post("charge/bank-payment/phone", { phone: "0803 123 4567" });
      expect(next.body.data).toMatchObject({ action: { step: "otp" } });
      expect(chargeOf(phone.reference, "bank").status).toBe("send_otp");
      expect((await c1.post("charge/bank-payment/otp", { otp: DOUBLE_OTP })).body.data.status).toBe(
        "success",
      );

      const pin = await pay(m);
      const c2 = checkout(pin);
      expect(
        (await c2.post("charge/bank-payment", { bankCode: "057", accountNumber: DOUBLE_ACCOUNTS.pin })).body
          .data.action.step,
      ).toBe("pin");
      expect((await c2.post("charge/bank-payment/pin", { pin: DOUBLE_PIN })).body.data.status).toBe(
        "success",
      );
      expect(app.output()).not.toMatch(new RegExp(`"pin":"?${DOUBLE_PIN}`));

      const wrong = await pay(m);
      const c3 = checkout(wrong);
      await c3.post("charge/bank-payment", { bankCode: "057", accountNumber: DOUBLE_ACCOUNTS.pin });
      const declined = await c3.post("charge/bank-payment/pin", { pin: "0000" });
      expect(declined.body.data).toMatchObject({ status: "failed", message: "Incorrect PIN" });
      expect((await verify(m, wrong.reference)).status).toBe("pending");

      for (const ref of [phone.reference, pin.reference]) {
        expect(await verify(m, ref)).toMatchObject({ status: "success", channel: "bank_payment" });
        await expectConservation(target, ref);
      }
      await expectConservation(target, wrong.reference);
    });

    it("USSD: Paystack's code to dial, paid when Paystack reports it; banks Paystack has no code for are refused", async () => {
      const m = await merchant();
      const s = await pay(m);
      const co = checkout(s);
      const refused = await co.post("charge/ussd", { bankCode: "044", phoneNumber: "08031234567" });
      expect(refused.status).toBe(400);
      expect(refused.body.message).toMatch(/\*737#/);
      const code = await co.post("charge/ussd", { bankCode: "058", phoneNumber: "08031234567" });
      expect(code.body.data).toMatchObject({
        status: "awaiting_ussd",
        ussdCode: expect.stringMatching(/^\*737\*/),
      });
      await double.complete(chargeOf(s.reference, "ussd").reference, "success");
      expect(await verify(m, s.reference)).toMatchObject({ status: "success", channel: "ussd" });
      await expectConservation(target, s.reference);
    });
  });

  describe("refunds", () => {
    it("a merchant refund goes to POST /refund once; Paystack's refund.processed and refund.failed settle it", async () => {
      const m = await merchant();
      const s = await pay(m);
      await checkout(s).post("charge/card", card(DOUBLE_CARDS.success));
      const charge = chargeOf(s.reference);
      const ask = (amount: string) =>
        api.call(
          "POST",
          "/v1/refunds",
          { reference: s.reference, amount },
          { "x-api-key": m.liveKey, "idempotency-key": `r-${amount}-${s.reference}` },
        );
      const first = await ask("2000.00");
      expect(first.status).toBe(201);
      await waitFor("asked", () => double.refunds().find((r) => r.merchantNote === first.body.data.id));
      const asked = double.refunds().find((r) => r.merchantNote === first.body.data.id);
      expect(asked).toMatchObject({ amount: 200_000, chargeReference: charge.reference });
      // The same Idempotency-Key: the same refund, never a second call to Paystack.
      expect((await ask("2000.00")).body.data.id).toBe(first.body.data.id);
      expect(double.refunds().filter((r) => r.chargeReference === charge.reference)).toHaveLength(1);
      await double.settleRefund(asked?.id as number, "processed");
      await waitFor("processed", async () => {
        const r = await api.call("GET", `/v1/refunds/${first.body.data.id}`, undefined, {
          "x-api-key": m.liveKey,
        });
        return r.body.data.status === "processed";
      });

      const second = await ask("1000.00");
      await waitFor("asked", () => double.refunds().find((r) => r.merchantNote === second.body.data.id));
      await double.settleRefund(
        double.refunds().find((r) => r.merchantNote === second.body.data.id)?.id as number,
        "failed",
      );
      await waitFor("failed", async () => {
        const r = await api.call("GET", `/v1/refunds/${second.body.data.id}`, undefined, {
          "x-api-key": m.liveKey,
        });
        return r.body.data.status === "failed";
      });
      // A failed refund's money is refundable again: 5000 - 2000.
      const full = await api.call(
        "POST",
        "/v1/refunds",
        { reference: s.reference },
        { "x-api-key": m.liveKey },
      );
      expect(full.body.data.amount).toBe("3000.00");
      await expectConservation(target, s.reference);
    });
  });

  describe("Paystack's webhook", () => {
    const send = (body: string, headers: Record<string, string>) =>
      fetch(`${app.url}/v1/rails/paystack/webhook`, {
        method: "POST",
        headers: { "content-type": "application/json", ...headers },
        body,
      }).then(async (r) => ({ status: r.status, body: await r.json() }));
    const sign = (key: string, body: string) => createHmac("sha512", key).update(body).digest("hex");

    it("refuses unsigned, forged (another key, another account's charge), tampered and stale events", async () => {
      const m = await merchant();
      const s = await pay(m);
      await checkout(s).post("charge/bank-transfer");
      const charge = chargeOf(s.reference, "bank_transfer");
      const event = JSON.stringify({
        event: "charge.success",
        data: {
          id: 99,
          domain: "live",
          status: "success",
          reference: charge.reference,
          amount: charge.amount,
          currency: "NGN",
          channel: "bank_transfer",
          paid_at: new Date().toISOString(),
        },
      });
      expect(await send(event, {})).toMatchObject({ status: 401, body: { error: "invalid_signature" } });
      const attacker = await merchant();
      expect(await send(event, { "x-paystack-signature": sign(attacker.paystackKey, event) })).toMatchObject({
        status: 401,
        body: { error: "invalid_signature" },
      });
      const good = sign(m.paystackKey, event);
      expect(
        await send(event.replace(`"amount":${charge.amount}`, `"amount":${charge.amount + 1}`), {
          "x-paystack-signature": good,
        }),
      ).toMatchObject({ status: 401 });
      const stale = event.replace(
        /"paid_at":"[^"]+"/,
        `"paid_at":"${new Date(Date.now() - 2 * 86_400_000).toISOString()}"`,
      );
      expect(await send(stale, { "x-paystack-signature": sign(m.paystackKey, stale) })).toMatchObject({
        status: 400,
        body: { error: "stale_event" },
      });
      expect((await verify(m, s.reference)).status).toBe("awaiting_transfer");
      // Signed with the charge's own key: credited.
      expect(await send(event, { "x-paystack-signature": good })).toMatchObject({
        status: 200,
        body: { data: { outcome: "credited", duplicate: false } },
      });
      expect((await verify(m, s.reference)).status).toBe("success");
    });

    it("PAYSTACK_WEBHOOK_ALLOWED_IPS: a signed event from an address not on the list is refused (403) and changes nothing; from a listed one, credited", async () => {
      const m = await merchant();
      const s = await pay(m);
      await checkout(s).post("charge/bank-transfer");
      const charge = chargeOf(s.reference, "bank_transfer");
      const event = JSON.stringify({
        event: "charge.success",
        data: {
          id: charge.id,
          domain: "live",
          status: "success",
          reference: charge.reference,
          amount: charge.amount,
          currency: "NGN",
          channel: "bank_transfer",
          paid_at: new Date().toISOString(),
        },
      });
      const signed = { "x-paystack-signature": sign(m.paystackKey, event) };
      const before = await ledger(target, s.reference);
      for (const from of ["203.0.113.7", "52.31.139.76", "::ffff:10.0.0.1"]) {
        expect(await send(event, { ...signed, "x-forwarded-for": from }), from).toMatchObject({
          status: 403,
          body: { status: "failed", error: "address_not_allowed" },
        });
      }
      expect((await verify(m, s.reference)).status).toBe("awaiting_transfer");
      expect(await ledger(target, s.reference)).toEqual(before);
      // Paystack's address (written as IPv6 too): the same event is acted on, once.
      expect(
        await send(event, { ...signed, "x-forwarded-for": `::ffff:${PAYSTACK_WEBHOOK_IPS[0]}` }),
      ).toMatchObject({ status: 200, body: { data: { outcome: "credited", duplicate: false } } });
      expect(await verify(m, s.reference)).toMatchObject({ status: "success", channel: "bank_transfer" });
      await expectConservation(target, s.reference);
    });

    it("an event of no charge of ours, signed by a connection's key, is acknowledged and ignored; unsigned by any key, refused", async () => {
      const m = await merchant();
      const connection = await api.call("GET", "/v1/merchants/paystack?mode=live", undefined, {
        authorization: `Bearer ${m.accessToken}`,
      });
      const address = connection.body.data.webhookUrl as string;
      const body = JSON.stringify({ event: "subscription.create", data: { domain: "live", id: 1 } });
      const res = await fetch(address, {
        method: "POST",
        headers: { "content-type": "application/json", "x-paystack-signature": sign(m.paystackKey, body) },
        body,
      });
      expect(res.status).toBe(200);
      expect((await res.json()).data).toMatchObject({ outcome: "ignored" });
      const bare = await send(body, { "x-paystack-signature": sign(m.paystackKey, body) });
      expect(bare).toMatchObject({ status: 401, body: { error: "invalid_signature" } });
    });
  });

  describe("saved cards", () => {
    /** A live checkout that saves `number` for `email` (the box ticked), paid through Paystack. */
    async function saveThroughPaystack(m: Live, email: string, number: string) {
      const s = await pay(m, { email, saveCard: "optional", amount: "1000.00" });
      const res = await checkout(s).post("charge/card", { ...card(number), saveCard: true, locale: "en" });
      expect(res.body.data.status, res.text).toBe("success");
      const v = await verify(m, s.reference);
      expect(v.authorization).toMatchObject({ status: "active", reusable: true, bank: "TEST BANK" });
      return v.authorization.authorizationCode as string;
    }
    const chargeSaved = (m: Live, body: Record<string, unknown>) =>
      api.call("POST", "/v1/payment/charge-authorization", body, { "x-api-key": m.liveKey });

    it("keeps Paystack's reusable authorization sealed, and charges it: success, a decline, send_otp, open_url, pending", async () => {
      const m = await merchant();
      const email = `saver-${randomBytes(4).toString("hex")}@example.com`;
      const good = await saveThroughPaystack(m, email, DOUBLE_CARDS.success);
      // At rest, Paystack's authorization_code is sealed; merchants only ever see AUTH_ codes of ours.
      const handle = openDatabase(database.url);
      try {
        const row = await handle.db
          .selectFrom("card_authorizations")
          .selectAll()
          .where("id", "=", good)
          .executeTakeFirstOrThrow();
        expect(row).toMatchObject({ rail: "paystack", key_source: "merchant", last4: "4081" });
        expect(row.token_sealed).toMatch(/^v1\./);
        const paystackCodes = double
          .charges()
          .flatMap((c) => (c.authorizationCode ? [c.authorizationCode] : []));
        expect(paystackCodes.length).toBeGreaterThan(0);
        for (const code of paystackCodes) expect(JSON.stringify(row)).not.toContain(code);
      } finally {
        await handle.db.destroy();
      }

      const paid = await chargeSaved(m, { authorizationCode: good, amount: "2500.00" });
      expect(paid.status, paid.text).toBe(201);
      expect(paid.body.data).toMatchObject({ status: "success", fees: "137.50", total: "2637.50" });
      const sent = chargeOf(paid.body.data.reference);
      expect(sent).toMatchObject({ amount: 263_750, status: "success" });
      expect(double.requests().some((r) => r.path === "/transaction/charge_authorization")).toBe(true);
      expect(await verify(m, paid.body.data.reference)).toMatchObject({
        status: "success",
        channel: "card",
        authorization: { authorizationCode: good },
      });
      await expectConservation(target, paid.body.data.reference);

      const declining = await saveThroughPaystack(m, email, DOUBLE_CARDS.savesThenDeclines);
      const declined = await chargeSaved(m, { authorizationCode: declining, amount: "2500.00" });
      expect(declined.body.data).toMatchObject({ status: "failed", reason: "card_declined" });
      expect((await verify(m, declined.body.data.reference)).status).toBe("failed");

      const otp = await saveThroughPaystack(m, email, DOUBLE_CARDS.savesThenOtp);
      const asked = await chargeSaved(m, { authorizationCode: otp, amount: "2500.00" });
      expect(asked.body.data).toMatchObject({
        status: "requires_action",
        checkoutUrl: expect.stringContaining("/pay/"),
      });
      const onPage = checkout({ accessCode: asked.body.data.accessCode });
      expect((await onPage.verify()).body.data).toMatchObject({ status: "pending", action: { step: "otp" } });
      expect((await onPage.post("charge/card/otp", { otp: DOUBLE_OTP })).body.data.status).toBe("success");
      expect((await verify(m, asked.body.data.reference)).status).toBe("success");
      await expectConservation(target, asked.body.data.reference);

      const threeDs = await saveThroughPaystack(m, email, DOUBLE_CARDS.savesThen3ds);
      const page = await chargeSaved(m, { authorizationCode: threeDs, amount: "2500.00" });
      expect(page.body.data.status).toBe("requires_action");
      expect(
        (await checkout({ accessCode: page.body.data.accessCode }).verify()).body.data.action,
      ).toMatchObject({
        step: "redirect",
        url: expect.stringContaining("/__double/3ds/"),
      });

      const slow = await saveThroughPaystack(m, email, DOUBLE_CARDS.savesThenPending);
      const pending = await chargeSaved(m, { authorizationCode: slow, amount: "2500.00" });
      expect(pending.body.data.status).toBe("pending");
      // Card reconciliation (or Paystack's webhook) settles it, as any card payment.
      await waitFor(
        "the pending saved-card charge settles",
        async () => (await verify(m, pending.body.data.reference)).status === "success",
      );
      await expectConservation(target, pending.body.data.reference);
      expect(app.output()).not.toContain(DOUBLE_CARDS.savesThenOtp);
      expect(app.output()).not.toContain(DOUBLE_CARDS.success);
    });

    it("a card Paystack does not mark reusable is not kept: the payment succeeds, no authorization is made", async () => {
      const m = await merchant();
      const s = await pay(m, {
        email: `once-${randomBytes(4).toString("hex")}@example.com`,
        saveCard: "required",
      });
      const res = await checkout(s).post("charge/card", card(DOUBLE_CARDS.notReusable));
      expect(res.body.data.status).toBe("success");
      const v = await verify(m, s.reference);
      expect(v).toMatchObject({ status: "success", authorization: null });
      const customer = await api.call("GET", `/v1/customers/${v.customer.code}`, undefined, {
        "x-api-key": m.liveKey,
      });
      expect(customer.body.data.authorizations).toEqual([]);
    });

    it("a currency Paystack's card rail cannot take is refused before Paystack is asked; another account's card is unknown", async () => {
      const m = await merchant();
      const code = await saveThroughPaystack(
        m,
        `usd-${randomBytes(4).toString("hex")}@example.com`,
        DOUBLE_CARDS.second,
      );
      const calls = double.requests().filter((r) => r.path === "/transaction/charge_authorization").length;
      const usd = await chargeSaved(m, { authorizationCode: code, amount: "10.00", currency: "USD" });
      expect([usd.status, usd.body.error]).toEqual([400, "channel_unavailable"]);
      expect(usd.body.message).toMatch(/NGN/);
      const other = await merchant();
      const foreign = await chargeSaved(other, { authorizationCode: code, amount: "10.00" });
      expect([foreign.status, foreign.body.error]).toEqual([404, "authorization_not_found"]);
      expect(double.requests().filter((r) => r.path === "/transaction/charge_authorization").length).toBe(
        calls,
      );
    });
  });

  it("every request the connector sent was one the document allows", () => {
    expect(double.requests().length).toBeGreaterThan(40);
    expect(double.violations()).toEqual([]);
  });
});

describe.each(dbKinds)("Paystack test mode through the deployment's key on %s", (kind) => {
  let double: PaystackDouble;
  let app: AppProc;
  let api: Api;
  const key = `sk_test_${randomBytes(20).toString("hex")}`;

  beforeAll(async () => {
    double = await startPaystackDouble();
    const database = await freshDatabase(kind);
    app = await startApp({
      name: `paystack-test-${kind}`,
      databaseUrl: database.url,
      env: {
        PAYSTACK_BASE_URL: double.url,
        PAYSTACK_SECRET_KEY_TEST: key,
        CHECKOUT_EXPIRY_SWEEP_SECONDS: "0",
      },
    });
    api = apiClient(app.url);
    double.addKey(key, `${app.url}/v1/rails/paystack/webhook`);
  });
  afterEach(() => double.assertClean());
  afterAll(() => double.close());

  it("test payments go to Paystack's test mode with the deployment key; the sandbox's doors refuse them", async () => {
    const signup = await api.call("POST", "/v1/merchants/auth/signup", {
      businessName: "Test Shop",
      email: `test-${Date.now()}-${randomBytes(3).toString("hex")}@example.com`,
      password: "correct horse battery staple",
    });
    const testKey = signup.body.data.keys.test.secretKey as string;
    const init = await api.call(
      "POST",
      "/v1/payment/initialize",
      { amount: "100.00", email: "p@example.com" },
      { "x-api-key": testKey },
    );
    const s = init.body.data;
    const h = { "x-access-code": s.accessCode };
    // The sandbox's test card is not Paystack's: declined by the (double's) network.
    expect(
      (await api.call("POST", "/v1/payment/checkout/charge/card", card("4242424242424242"), h)).body.data
        .status,
    ).toBe("failed");
    expect(
      (await api.call("POST", "/v1/payment/checkout/charge/card", card(DOUBLE_CARDS.success), h)).body.data
        .status,
    ).toBe("success");

    const other = (
      await api.call(
        "POST",
        "/v1/payment/initialize",
        { amount: "100.00", email: "p@example.com" },
        { "x-api-key": testKey },
      )
    ).body.data;
    const simulate = await api.call(
      "POST",
      "/v1/payment/checkout/charge/bank-transfer/simulate",
      { scenario: "success" },
      { "x-access-code": other.accessCode },
    );
    expect(simulate).toMatchObject({ status: 409, body: { error: "invalid_state" } });
    const account = await api.call(
      "POST",
      "/v1/payment/checkout/charge/bank-transfer",
      {},
      { "x-access-code": other.accessCode },
    );
    expect(account.status).toBe(200);
    const charge = double.charges().find((c) => c.channel === "bank_transfer");
    const delivered = await double.transfer(charge?.reference as string, charge?.amount as number);
    expect(JSON.parse(delivered.answer).data.outcome).toBe("credited");
    const paid = await api.call("GET", `/v1/payment/verify/${other.reference}`, undefined, {
      "x-api-key": testKey,
    });
    expect(paid.body.data.status).toBe("success");
  });
});
