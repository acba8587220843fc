import { afterAll, describe, expect, it } from "vitest";
import { EVENT_TYPES } from "@/lib/webhooks/event-types";
import { targets } from "./helpers/api";
import { ISO, SAVED_CARDS } from "./helpers/channels";
import { checkWebhook } from "./helpers/contract";
import {
  cleanupHarness,
  initializePayment,
  merchantWithWebhook,
  payByCard,
  refundPayment,
  requestBankTransfer,
  sandboxTransfer,
  settleRefund,
  simulate,
  startReceiver,
  verifyWebhook,
} from "./helpers/webhook-harness";

/**
 * Every webhook event type, delivered to a real receiver and held to the OpenAPI document's `webhooks`
 * (checkWebhook), on SQLite and PostgreSQL. The suites' staging servers never settle a refund on their own
 * (tests/setup/servers.ts), so a refund stays pending until a test settles it through the sandbox rail.
 */
afterAll(async () => {
  // Closes the receivers, and fails the file if any body they got is not what the document describes.
  await cleanupHarness();
});

describe.each(targets)("webhook events on $name", (target) => {
  async function paidByCard(m: Awaited<ReturnType<typeof merchantWithWebhook>>, amount: string) {
    const { reference, accessCode } = await initializePayment(m, { amount, email: "payer@example.com" });
    expect((await payByCard(m, accessCode)).status).toBe("success");
    return reference;
  }

  it("a refund settled as failed is delivered as refund.failed, its body as the document describes", async () => {
    const receiver = await startReceiver();
    const m = await merchantWithWebhook(target.url, `${receiver.url}/hooks`, ["refund.failed"]);
    const reference = await paidByCard(m, "1000");
    const refund = await refundPayment(m, reference, "600");
    expect(refund.status).toBe("pending");
    expect(await settleRefund(m, refund.id, "failed")).toMatchObject({
      status: "failed",
      failureReason: "sandbox_failed",
    });

    const [got] = await receiver.waitForCount(1);
    if (!got) throw new Error("no delivery");
    await checkWebhook(got.json);
    expect(await got.conforms).toBe(true);
    expect(verifyWebhook(got, m.secret)).toEqual(got.json);
    expect(got.json).toMatchObject({
      event: "refund.failed",
      data: {
        id: refund.id,
        reference,
        amount: "600.00",
        currency: "NGN",
        status: "failed",
        type: "merchant",
        failureReason: "sandbox_failed",
        processedAt: expect.stringMatching(ISO),
      },
    });
    await receiver.close();
  });

  it("every event type is delivered in one run, and each one's body passes the document's schema", async () => {
    const receiver = await startReceiver();
    const m = await merchantWithWebhook(target.url, `${receiver.url}/hooks`);

    // A virtual account (checkout.awaiting_transfer), then too little transferred to it (checkout.amount_mismatch).
    const a = await initializePayment(m, { amount: "2000", email: "ada@example.com" });
    const account = await requestBankTransfer(m, a.accessCode);
    expect((await sandboxTransfer(m, account.accountNumber, "10.00")).outcome).toBe("amount_mismatch");
    // A failed payment (payment.failed, checkout.completed).
    const b = await initializePayment(m, { amount: "250.50", email: "bola@example.com" });
    expect((await simulate(m, b.accessCode, "failed")).status).toBe("failed");
    // A card payment (payment.completed, checkout.completed), refunded twice: one refund fails
    // (refund.failed), the other reaches the payer (refund.processed).
    const c = await paidByCard(m, "1500");
    const failed = await refundPayment(m, c, "100");
    await settleRefund(m, failed.id, "failed");
    const processed = await refundPayment(m, c, "200");
    await settleRefund(m, processed.id, "processed");

    const got = await receiver.waitForCount(8);
    expect(got.map((r) => `${r.json.event} ${r.json.data.reference}`).sort()).toEqual(
      [
        `checkout.awaiting_transfer ${a.reference}`,
        `checkout.amount_mismatch ${a.reference}`,
        `payment.failed ${b.reference}`,
        `checkout.completed ${b.reference}`,
        `payment.completed ${c}`,
        `checkout.completed ${c}`,
        `refund.failed ${c}`,
        `refund.processed ${c}`,
      ].sort(),
    );
    for (const r of got) expect(verifyWebhook(r, m.secret)).toEqual(r.json);

    // Subscriptions: one of a single period (renewed once, then completed), and one whose card declines (its
    // invoice's payment failed, past due), cancelled.
    const sk = { "x-api-key": m.testKey };
    async function savedCard(number: string, email: string) {
      const s = await initializePayment(m, { amount: "100", email, saveCard: "required" });
      expect((await payByCard(m, s.accessCode, number)).status).toBe("success");
      const v = (await m.api.call("GET", `/v1/payment/verify/${s.reference}`, undefined, sk)).body.data;
      return {
        customer: v.customer.code as string,
        authorizationCode: v.authorization.authorizationCode as string,
      };
    }
    const plan = await m.api.call(
      "POST",
      "/v1/plans",
      { name: "One box", amount: "300", interval: "monthly", invoiceLimit: 1 },
      sk,
    );
    expect(plan.status, plan.text).toBe(201);
    const subscribe = async (card: { customer: string; authorizationCode: string }) => {
      const res = await m.api.call("POST", "/v1/subscriptions", { ...card, plan: plan.body.data.code }, sk);
      expect(res.status, res.text).toBe(201);
      return res.body.data as { code: string; status: string };
    };
    const once = await subscribe(await savedCard(SAVED_CARDS.success, "chidi@example.com"));
    expect(once.status).toBe("completed");
    const declining = await subscribe(await savedCard(SAVED_CARDS.declinesLater, "dayo@example.com"));
    expect(declining.status).toBe("past_due");
    const cancelled = await m.api.call("POST", `/v1/subscriptions/${declining.code}/cancel`, {}, sk);
    expect(cancelled.body.data.status, cancelled.text).toBe("cancelled");
    const ofSubscriptions = (r: { json: { event: string } }) =>
      /^(subscription|invoice)\./.test(r.json.event);
    const bySubscription = await receiver.waitForCount(7, 20_000, ofSubscriptions);
    expect(bySubscription.map((r) => r.json.event).sort()).toEqual(
      [
        "subscription.created",
        "subscription.renewed",
        "subscription.completed",
        "subscription.created",
        "invoice.payment_failed",
        "subscription.past_due",
        "subscription.cancelled",
      ].sort(),
    );
    for (const r of bySubscription) expect(verifyWebhook(r, m.secret)).toEqual(r.json);

    // The event types whose delivered body passed checkWebhook are exactly the service's event types: a new
    // type must be delivered here, and pass, for this to hold.
    expect(await receiver.conformingEvents()).toEqual([...EVENT_TYPES].sort());
    await receiver.close();
  });
});
