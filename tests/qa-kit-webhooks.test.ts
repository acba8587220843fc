import { createHmac } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startWebhookReceiver, webhookKey } from "../qa-kit/index.mjs";
import {
  type AppProc,
  cleanupHarness,
  freshDatabase,
  initializePayment,
  merchantWithWebhook,
  payByCard,
  startApp,
  waitFor,
} from "./helpers/webhook-harness";

/**
 * The QA kit's webhook receiver checks signatures the way docs/guides/verify-webhooks.md tells a merchant's
 * server to: a real delivery is verified, a forged or altered one is refused 400, and a secret anyone could
 * sign under (unset, empty, `whsec_`, `whsec_!!!!`, 3 bytes) is refused before anything is checked with it.
 */
let app: AppProc;
beforeAll(async () => {
  const db = await freshDatabase("sqlite");
  app = await startApp({ name: "qa-kit-webhooks", databaseUrl: db.url });
}, 120_000);
afterAll(() => cleanupHarness(), 60_000);

describe("the QA kit's webhook receiver", () => {
  it("verifies real deliveries and refuses forged ones", async () => {
    const receiver = await startWebhookReceiver();
    try {
      const merchant = await merchantWithWebhook(app.url, receiver.url);
      receiver.verifyWith(merchant.secret);
      const payment = await initializePayment(merchant, { amount: "5000", email: "payer@example.com" });
      await payByCard(merchant, payment.accessCode);
      const delivered = await waitFor("a delivery", () => receiver.requests.find((r) => r.json));
      expect(delivered).toMatchObject({ verified: true, answered: 200 });

      const id = "evt_forgedforgedforgedforge";
      const at = String(Math.floor(Date.now() / 1000));
      const body = delivered.body.replace(/"amount":"[^"]+"/, '"amount":"9000000.00"');
      const post = (signedWith: Buffer, text: string) =>
        fetch(receiver.url, {
          method: "POST",
          headers: {
            "content-type": "application/json",
            "webhook-id": id,
            "webhook-timestamp": at,
            "webhook-signature": `v1,${createHmac("sha256", signedWith).update(`${id}.${at}.${text}`).digest("base64")}`,
          },
          body: text,
        });
      expect((await post(Buffer.alloc(0), body)).status).toBe(400);
      expect((await post(Buffer.from("fedcba9876543210fedcba9876543210"), body)).status).toBe(400);
      // Signed with the endpoint's own key, but altered after signing.
      const key = webhookKey(merchant.secret);
      const signed = await fetch(receiver.url, {
        method: "POST",
        headers: {
          "webhook-id": id,
          "webhook-timestamp": at,
          "webhook-signature": `v1,${createHmac("sha256", key).update(`${id}.${at}.${delivered.body}`).digest("base64")}`,
        },
        body,
      });
      expect(signed.status).toBe(400);
      expect(receiver.requests.slice(-3).map((r) => r.verified)).toEqual([false, false, false]);
    } finally {
      await receiver.close();
    }
  });

  it.each([undefined, "", "whsec_", "whsec_!!!!", "whsec_AAAA"])(
    "refuses the secret %j, naming PAYGATE_WEBHOOK_SECRET",
    async (secret) => {
      const receiver = await startWebhookReceiver();
      try {
        expect(() => receiver.verifyWith(secret)).toThrow(/PAYGATE_WEBHOOK_SECRET .*16 bytes/);
      } finally {
        await receiver.close();
      }
    },
  );
});
