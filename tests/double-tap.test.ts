import { randomBytes } from "node:crypto";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { DOUBLE_ACCOUNTS, DOUBLE_CARDS, DOUBLE_OTP, DOUBLE_PIN } from "@/lib/rails/paystack/double/catalogue";
import { type PaystackDouble, startPaystackDouble } from "@/lib/rails/paystack/double/server";
import { PAYSTACK_WEBHOOK_IPS } from "@/lib/rails/paystack/shapes";
import { CARDS, expectConservation, OTP, card as sandboxCard } from "./helpers/channels";
import {
  type Api,
  type AppProc,
  apiClient,
  cleanupHarness,
  dbKinds,
  type FreshDatabase,
  freshDatabase,
  startApp,
} from "./helpers/webhook-harness";
import type { Target } from "./setup/servers";

/**
 * A step of a payment answered several times at once (a double tap, a retry, two tabs), the answers spread
 * over two instances (two server processes) on one database: exactly one answer goes to the processor, the
 * others are told 409 `step_already_answered` with what comes next, and the payment carries on to be paid
 * once. Bank payments' phone and OTP steps and cards' PIN, phone and OTP steps on the Paystack rail (the
 * double, which refuses an answer to a step it no longer waits for, as Paystack does), and the card OTP of
 * the sandbox rail. On SQLite, and on PostgreSQL when TEST_DATABASE_URL is set.
 */
afterAll(() => cleanupHarness(), 60_000);

const liveKey = () => `sk_live_${randomBytes(20).toString("hex")}`;
const paystackCard = (number: string) => ({
  number,
  expiryMonth: 12,
  expiryYear: new Date().getUTCFullYear() + 3,
  cvv: "408",
});

type Answer = Awaited<ReturnType<Api["call"]>>;

/** Exactly one answer went through; every other one was told the step had been answered. */
function oneWinner(answers: Answer[]): Answer {
  const statuses = answers.map((a) => `${a.status} ${a.body?.error ?? a.body?.data?.status}`);
  const winners = answers.filter((a) => a.status === 200);
  expect(winners, statuses.join(", ")).toHaveLength(1);
  for (const loser of answers.filter((a) => a.status !== 200)) {
    expect(loser.status, loser.text).toBe(409);
    expect(loser.body.error, loser.text).toBe("step_already_answered");
    expect(loser.body.message).toMatch(/already (sent|answered)/);
  }
  return winners[0] as Answer;
}

describe.each(dbKinds)(
  "a step answered several times at once, over two instances on one %s database",
  (kind) => {
    let double: PaystackDouble;
    let live: AppProc[] = [];
    let staging: AppProc[] = [];
    let liveTarget: Target;
    let stagingTarget: Target;

    beforeAll(async () => {
      double = await startPaystackDouble({ lostAnswerMs: 4_000, heldAnswerMs: 120_000 });
      const [liveDb, stagingDb]: FreshDatabase[] = await Promise.all([
        freshDatabase(kind),
        freshDatabase(kind),
      ]);
      const liveEnv = {
        PAYMENTS_ENV: "production",
        PAYSTACK_BASE_URL: double.url,
        PAYSTACK_TIMEOUT_MS: "3000",
        PAYSTACK_WEBHOOK_ALLOWED_IPS: `127.0.0.1,${PAYSTACK_WEBHOOK_IPS[0]}`,
        LOG_LEVEL: "warn",
      };
      const db = (d: FreshDatabase | undefined) => (d as FreshDatabase).url;
      // Each pair starts at once on its empty database, as a deployment starts its instances.
      [live, staging] = await Promise.all([
        Promise.all(
          ["a", "b"].map((n) =>
            startApp({ name: `double-tap-live-${kind}-${n}`, databaseUrl: db(liveDb), env: liveEnv }),
          ),
        ),
        Promise.all(
          ["a", "b"].map((n) =>
            startApp({
              name: `double-tap-staging-${kind}-${n}`,
              databaseUrl: db(stagingDb),
              env: { LOG_LEVEL: "warn" },
            }),
          ),
        ),
      ]);
      liveTarget = { name: kind, url: (live[0] as AppProc).url, databaseUrl: db(liveDb), logFile: "" };
      stagingTarget = {
        name: kind,
        url: (staging[0] as AppProc).url,
        databaseUrl: db(stagingDb),
        logFile: "",
      };
    }, 180_000);
    afterEach(() => double.assertClean());
    afterAll(async () => {
      await double?.close();
    });

    const apis = (pair: AppProc[]) => pair.map((p) => apiClient(p.url));

    /** A merchant of the live pair, its Paystack account connected; answers its live key. */
    async function liveMerchant(): Promise<string> {
      const [a] = apis(live) as [Api];
      const res = await a.call("POST", "/v1/merchants/auth/signup", {
        businessName: "Double Tap Shop",
        email: `tap-${randomBytes(6).toString("hex")}@example.com`,
        password: "correct horse battery staple",
      });
      expect(res.status, res.text).toBe(201);
      const paystackKey = liveKey();
      double.addKey(paystackKey);
      const put = await a.call(
        "PUT",
        "/v1/merchants/paystack",
        { mode: "live", secretKey: paystackKey },
        { authorization: `Bearer ${res.body.data.accessToken}` },
      );
      expect(put.status, put.text).toBe(200);
      double.addKey(paystackKey, put.body.data.webhookUrl);
      return res.body.data.keys.live.secretKey;
    }

    async function pay(pair: AppProc[], key: string) {
      const [a] = apis(pair) as [Api];
      const res = await a.call(
        "POST",
        "/v1/payment/initialize",
        { amount: "5000.00", email: "payer@example.com" },
        { "x-api-key": key },
      );
      expect(res.status, res.text).toBe(201);
      return res.body.data as { reference: string; accessCode: string };
    }

    /** `times` answers of one step sent together, alternating between the pair's two instances. */
    function tap(pair: AppProc[], accessCode: string, path: string, body: unknown, times: number) {
      const clients = apis(pair);
      return Promise.all(
        Array.from({ length: times }, (_, i) =>
          (clients[i % 2] as Api).call("POST", `/v1/payment/checkout/${path}`, body, {
            "x-access-code": accessCode,
          }),
        ),
      );
    }

    const verify = async (pair: AppProc[], key: string, reference: string) =>
      (
        await (apis(pair)[1] as Api).call("GET", `/v1/payment/verify/${reference}`, undefined, {
          "x-api-key": key,
        })
      ).body.data;

    const chargesOf = (reference: string, channel: string) =>
      double
        .charges()
        .filter((c) => c.reference.startsWith(`${reference.replace(/_/g, "-")}.`) && c.channel === channel);

    it.each([2, 4])(
      "Paystack bank payment: the phone step sent %i times at once, then the OTP four times: one charge, paid once",
      async (times) => {
        const key = await liveMerchant();
        const s = await pay(live, key);
        const [a] = apis(live) as [Api];
        const asked = await a.call(
          "POST",
          "/v1/payment/checkout/charge/bank-payment",
          { bankCode: "058", accountNumber: DOUBLE_ACCOUNTS.phoneThenOtp },
          { "x-access-code": s.accessCode },
        );
        expect(asked.body.data?.action?.step, asked.text).toBe("phone");

        const phone = oneWinner(
          await tap(live, s.accessCode, "charge/bank-payment/phone", { phone: "0803 123 4567" }, times),
        );
        expect(phone.body.data).toMatchObject({
          status: "awaiting_bank_authorization",
          action: { step: "otp" },
        });
        // The customer sees the next step, from either instance.
        for (const client of apis(live)) {
          const status = await client.call("GET", "/v1/payment/checkout/verify", undefined, {
            "x-access-code": s.accessCode,
          });
          expect(status.body.data.action).toMatchObject({ channel: "bank_payment", step: "otp" });
        }
        expect(chargesOf(s.reference, "bank").map((c) => c.status)).toEqual(["send_otp"]);

        const otp = oneWinner(
          await tap(live, s.accessCode, "charge/bank-payment/otp", { otp: DOUBLE_OTP }, 4),
        );
        expect(otp.body.data.status).toBe("success");
        expect(await verify(live, key, s.reference)).toMatchObject({
          status: "success",
          channel: "bank_payment",
        });
        expect(chargesOf(s.reference, "bank").map((c) => c.status)).toEqual(["success"]);
        await expectConservation(liveTarget, s.reference);
      },
      90_000,
    );

    it("Paystack card: the PIN, then the OTP, each sent four times at once; the phone step the same: one charge each, paid once", async () => {
      const key = await liveMerchant();
      const [a] = apis(live) as [Api];

      const s = await pay(live, key);
      const charged = await a.call(
        "POST",
        "/v1/payment/checkout/charge/card",
        paystackCard(DOUBLE_CARDS.pinThenOtp),
        {
          "x-access-code": s.accessCode,
        },
      );
      expect(charged.body.data?.action?.step, charged.text).toBe("pin");
      const pin = oneWinner(await tap(live, s.accessCode, "charge/card/pin", { pin: DOUBLE_PIN }, 4));
      expect(pin.body.data).toMatchObject({ status: "awaiting_otp" });
      const otp = oneWinner(await tap(live, s.accessCode, "charge/card/otp", { otp: DOUBLE_OTP }, 4));
      expect(otp.body.data.status).toBe("success");
      expect(await verify(live, key, s.reference)).toMatchObject({ status: "success", channel: "card" });
      expect(chargesOf(s.reference, "card").map((c) => c.status)).toEqual(["success"]);
      await expectConservation(liveTarget, s.reference);

      const p = await pay(live, key);
      const asked = await a.call(
        "POST",
        "/v1/payment/checkout/charge/card",
        paystackCard(DOUBLE_CARDS.phone),
        {
          "x-access-code": p.accessCode,
        },
      );
      expect(asked.body.data?.action?.step, asked.text).toBe("phone");
      oneWinner(await tap(live, p.accessCode, "charge/card/phone", { phone: "0803 123 4567" }, 4));
      const paid = oneWinner(await tap(live, p.accessCode, "charge/card/otp", { otp: DOUBLE_OTP }, 4));
      expect(paid.body.data.status).toBe("success");
      expect(chargesOf(p.reference, "card").map((c) => c.status)).toEqual(["success"]);
      await expectConservation(liveTarget, p.reference);
    }, 90_000);

    it("sandbox card: the OTP sent four times at once is taken once and pays once", async () => {
      const [a] = apis(staging) as [Api];
      const signup = await a.call("POST", "/v1/merchants/auth/signup", {
        businessName: "Sandbox Tap Shop",
        email: `tap-${randomBytes(6).toString("hex")}@example.com`,
        password: "correct horse battery staple",
      });
      const key = signup.body.data.keys.test.secretKey as string;
      const s = await pay(staging, key);
      const charged = await a.call("POST", "/v1/payment/checkout/charge/card", sandboxCard(CARDS.otp), {
        "x-access-code": s.accessCode,
      });
      expect(charged.body.data?.status, charged.text).toBe("awaiting_otp");
      const paid = oneWinner(await tap(staging, s.accessCode, "charge/card/otp", { otp: OTP }, 4));
      expect(paid.body.data.status).toBe("success");
      expect(await verify(staging, key, s.reference)).toMatchObject({ status: "success", channel: "card" });
      await expectConservation(stagingTarget, s.reference);
    }, 60_000);
  },
);
