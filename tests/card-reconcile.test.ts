import { afterAll, describe, expect, it } from "vitest";
import { openDatabase } from "@/lib/db/client";
import {
  apiClient,
  cleanupHarness,
  dbKinds,
  freshDatabase,
  type HookMerchant,
  onServer,
  requestBankTransfer,
  sandboxTransfer,
  startApp,
  waitFor,
} from "./helpers/webhook-harness";

/**
 * Card reconciliation (docs/refunds.md), with real server processes: a server is killed (`kill -9`) while the
 * sandbox card network holds three card payments (SANDBOX_CARD_DELAY_MS), and two fresh servers on the same
 * database, sweeping every second, settle each attempt once from what the network decided: a success
 * completes its still-open payment; a success on a payment that a bank transfer paid meanwhile becomes an
 * automatic `duplicate_payment` refund, which the sandbox rail then processes on its own
 * (SANDBOX_REFUND_DELAY_MS); a decline fails the attempt and leaves the checkout open.
 */
afterAll(() => cleanupHarness(), 60_000);

const CARD = (number: string) => ({
  number,
  expiryMonth: 12,
  expiryYear: new Date().getUTCFullYear() + 2,
  cvv: "123",
});

describe.each(dbKinds)("card reconciliation on %s", (kind) => {
  it("kill -9 while cards are at the network; restarted servers reconcile each attempt once", async () => {
    const database = await freshDatabase(kind);
    const first = await startApp({
      name: `reconcile-${kind}-a`,
      databaseUrl: database.url,
      env: {
        SANDBOX_CARD_DELAY_MS: "15000",
        CHECKOUT_EXPIRY_SWEEP_SECONDS: "0",
        CARD_RECONCILE_SECONDS: "2",
      },
    });
    const api = apiClient(first.url);
    const signup = await api.call("POST", "/v1/merchants/auth/signup", {
      businessName: "Reconcile Shop",
      email: `reconcile-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`,
      password: "correct horse battery staple",
    });
    expect(signup.status).toBe(201);
    const m: HookMerchant = {
      id: signup.body.data.merchant.id,
      accessToken: signup.body.data.accessToken,
      testKey: signup.body.data.keys.test.secretKey,
      secret: "",
      api,
    };
    const start = async () => {
      const res = await api.call(
        "POST",
        "/v1/payment/initialize",
        { amount: "5000", email: "payer@example.com" },
        { "x-api-key": m.testKey },
      );
      expect(res.status).toBe(201);
      return res.body.data as {
        reference: string;
        accessCode: string;
        cardTotal: string;
        transferTotal: string;
      };
    };
    const paid = await start();
    const doubled = await start();
    const declined = await start();
    const account = await requestBankTransfer(m, doubled.accessCode);

    // Three card payments reach the network; none of their answers will come back.
    const charge = (s: { accessCode: string }, number: string) =>
      api
        .call("POST", "/v1/payment/checkout/charge/card", CARD(number), { "x-access-code": s.accessCode })
        .catch(() => undefined);
    void charge(paid, "4242424242424242");
    void charge(doubled, "4242424242424242");
    void charge(declined, "4000000000000002");
    const { db } = openDatabase(database.url);
    try {
      await waitFor("three card attempts at the network", async () => {
        const decided = await db.selectFrom("sandbox_card_charges").select("attempt_id").execute();
        return decided.length === 3;
      });
      // Meanwhile the customer of `doubled` also pays by bank transfer, which credits it.
      expect((await sandboxTransfer(m, account.accountNumber, account.amount)).outcome).toBe("credited");
      await first.kill9();

      const attempts = await db
        .selectFrom("charge_attempts")
        .select(["id", "status", "transaction_id"])
        .where("channel", "=", "card")
        .execute();
      expect(attempts.map((a) => a.status)).toEqual(["authorizing", "authorizing", "authorizing"]);

      // Two servers sweep the same database every second.
      const env = {
        CHECKOUT_EXPIRY_SWEEP_SECONDS: "1",
        CARD_RECONCILE_SECONDS: "2",
        SANDBOX_REFUND_DELAY_MS: "500",
      };
      const [b, c] = await Promise.all([
        startApp({ name: `reconcile-${kind}-b`, databaseUrl: database.url, env }),
        startApp({ name: `reconcile-${kind}-c`, databaseUrl: database.url, env }),
      ]);
      const mb = onServer(m, b.url);
      const key = { "x-api-key": m.testKey };
      const verify = async (reference: string) =>
        (await mb.api.call("GET", `/v1/payment/verify/${reference}`, undefined, key)).body.data;

      await waitFor(
        "every card attempt reconciled",
        async () => {
          const left = await db
            .selectFrom("charge_attempts")
            .select("id")
            .where("channel", "=", "card")
            .where("status", "=", "authorizing")
            .execute();
          return left.length === 0;
        },
        30_000,
        100,
      );

      // The payment the network made completes the open checkout, by card.
      expect(await verify(paid.reference)).toMatchObject({
        status: "success",
        channel: "card",
        total: paid.cardTotal,
      });
      // The one paid meanwhile by transfer stays so; the card's money goes back as an automatic refund,
      // which the sandbox rail processes on its own.
      expect(await verify(doubled.reference)).toMatchObject({ status: "success", channel: "bank_transfer" });
      const refund = await waitFor(
        "the duplicate card payment refunded",
        async () => {
          const list = await mb.api.call("GET", `/v1/refunds?reference=${doubled.reference}`, undefined, key);
          const r = list.body.data.refunds[0];
          return r?.status === "processed" ? r : undefined;
        },
        20_000,
        100,
      );
      expect(refund).toMatchObject({
        type: "automatic",
        reason: "duplicate_payment",
        amount: doubled.cardTotal,
        status: "processed",
      });
      // The declined card captured nothing; its checkout is still open for another try.
      expect(await verify(declined.reference)).toMatchObject({ status: "pending" });

      const settled = await db
        .selectFrom("charge_attempts")
        .innerJoin("transactions", "transactions.id", "charge_attempts.transaction_id")
        .select([
          "transactions.reference",
          "charge_attempts.status",
          "charge_attempts.failure_reason",
          "charge_attempts.captured_minor",
        ])
        .where("charge_attempts.channel", "=", "card")
        .execute();
      const of = (reference: string) => settled.find((a) => a.reference === reference);
      expect(of(paid.reference)).toMatchObject({ status: "success" });
      expect(of(doubled.reference)).toMatchObject({ status: "refunded" });
      expect(of(declined.reference)).toMatchObject({
        status: "failed",
        failure_reason: "card_declined",
        captured_minor: null,
      });

      // Once: one completion event each, one refund for the card's money, however many servers swept.
      const events = await db
        .selectFrom("events")
        .select(["type", "reference"])
        .where("merchant_id", "=", m.id)
        .execute();
      const count = (type: string, reference: string) =>
        events.filter((e) => e.type === type && e.reference === reference).length;
      expect(count("payment.completed", paid.reference)).toBe(1);
      expect(count("payment.completed", doubled.reference)).toBe(1);
      expect(count("refund.processed", doubled.reference)).toBe(1);
      const refunds = await db.selectFrom("refunds").select(["reference"]).execute();
      expect(refunds.map((r) => r.reference)).toEqual([doubled.reference]);
      await Promise.all([b.stop(), c.stop()]);
    } finally {
      await db.destroy();
    }
  }, 120_000);
});
