import { createHmac } from "node:crypto";
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type EventOf,
  Paygate,
  PaygateError,
  type PaygateEvent,
  WebhookSecretError,
  WebhookVerificationError,
} from "../sdk/node/dist/index.js";
import { type FaultProxy, startFaultProxy } from "./helpers/fault-proxy";
import {
  type AppProc,
  cleanupHarness,
  dbKinds,
  freshDatabase,
  type HookMerchant,
  merchantWithWebhook,
  type Receiver,
  startApp,
  startReceiver,
} from "./helpers/webhook-harness";

/**
 * The server SDK (sdk/node, @paygate/node, as built from the OpenAPI document) against the real built
 * service on each database: its calls, its one error, its retries through a fault-injecting proxy (with the
 * Idempotency-Key that makes a retried POST safe), and its webhook verification on real deliveries.
 */
const ROOT = resolve(import.meta.dirname, "..");
const CARD = {
  number: "4242424242424242",
  expiryMonth: 12,
  expiryYear: new Date().getUTCFullYear() + 2,
  cvv: "123",
};

const withoutServers = (doc: Record<string, unknown>) => {
  const { servers: _, ...rest } = doc;
  return rest;
};

afterAll(async () => {
  await cleanupHarness();
});

describe.each(dbKinds)("the server SDK on %s", (kind) => {
  let app: AppProc;
  let receiver: Receiver;
  let merchant: HookMerchant;
  let paygate: Paygate;

  beforeAll(async () => {
    const db = await freshDatabase(kind);
    app = await startApp({
      name: `sdk-${kind}`,
      databaseUrl: db.url,
      env: { SANDBOX_REFUND_DELAY_MS: "60000" },
    });
    receiver = await startReceiver();
    merchant = await merchantWithWebhook(app.url, receiver.url);
    paygate = new Paygate({
      secretKey: merchant.testKey,
      sessionToken: merchant.accessToken,
      baseUrl: `${app.url}/v1`,
    });
  });

  it("was generated from the document this service serves", async () => {
    // Only the servers name the deployment (this one's address); everything else, its examples' hosts included,
    // is the same whatever configuration builds or serves the document.
    const text = await (await fetch(`${app.url}/v1/openapi.json`)).text();
    expect(text).not.toContain(`${app.url}/pay/`);
    expect(text).not.toContain(`${app.url}/l/`);
    const served = JSON.parse(text) as Record<string, unknown>;
    const built = JSON.parse(readFileSync(join(ROOT, "sdk/node/openapi.json"), "utf8")) as Record<
      string,
      unknown
    >;
    expect(withoutServers(served)).toEqual(withoutServers(built));
    expect(await paygate.operations.getOpenapi({})).toMatchObject({ openapi: "3.1.0" });
  });

  it("initializes, pays in the sandbox, verifies, refunds, and verifies the real webhooks of it", async () => {
    const session = await paygate.payments.initialize({
      amount: "5000.50",
      email: "ada@example.com",
      metadata: { orderId: "1042" },
    });
    expect(session).toMatchObject({ amount: "5000.50", currency: "NGN", status: "pending" });
    expect(session.reference).toMatch(/^PAY_TXN_/);

    const charge = await paygate.checkout.chargeCard(session.accessCode, CARD);
    expect(charge.status).toBe("success");

    const payment = await paygate.payments.verify(session.reference);
    expect(payment).toMatchObject({ reference: session.reference, status: "success", amount: "5000.50" });
    expect(payment.metadata).toEqual({ orderId: "1042" });

    const refund = await paygate.refunds.create({ reference: session.reference, amount: "1000.00" });
    expect(refund).toMatchObject({ amount: "1000.00", status: "pending", type: "merchant" });
    const listed = await paygate.refunds.list({ reference: session.reference });
    expect(listed.refunds.map((r) => r.id)).toEqual([refund.id]);
    expect(listed.nextCursor).toBeNull();
    expect(await paygate.refunds.retrieve(refund.id)).toEqual(refund);
    const settled = await paygate.sandbox.settleRefund(refund.id, { outcome: "processed" });
    expect(settled.status).toBe("processed");

    const completed = await receiver.waitForCount(
      1,
      20_000,
      (r) => r.json?.event === "payment.completed" && r.json.data.reference === session.reference,
    );
    const processed = await receiver.waitForCount(
      1,
      20_000,
      (r) => r.json?.event === "refund.processed" && r.json.data.id === refund.id,
    );
    const deliveries = [completed[0], processed[0]];
    const events: PaygateEvent[] = deliveries.map((d) =>
      paygate.webhooks.verify(d?.raw ?? Buffer.alloc(0), d?.headers ?? {}, merchant.secret),
    );
    const seen: string[] = [];
    for (const event of events) {
      // Narrowed by `event`: each branch reads its own event's fields, typed from the document.
      switch (event.event) {
        case "payment.completed":
          expect(event.data.amountSettled).toBe("5000.50");
          expect(event.data.customer.email).toBe("ada@example.com");
          seen.push(`${event.event} ${event.data.reference}`);
          break;
        case "refund.processed":
          expect(event.data.amount).toBe("1000.00");
          seen.push(`${event.event} ${event.data.id}`);
          break;
        default:
          seen.push(`unexpected ${event.event}`);
      }
    }
    expect(seen).toEqual([`payment.completed ${session.reference}`, `refund.processed ${refund.id}`]);

    // The same events, read with the secret key.
    const page = await paygate.events.list({ reference: session.reference });
    const types = page.events.map((e) => e.type);
    expect(types).toEqual(
      expect.arrayContaining(["payment.completed", "checkout.completed", "refund.processed"]),
    );
    const one = await paygate.events.retrieve(page.events[0]?.id ?? "");
    expect(one.id).toBe(page.events[0]?.id);
  });

  it("types the bank transfer's events: the account awaited, too little arrived, then the rest", async () => {
    const session = await paygate.payments.initialize({ amount: "2000.00", email: "ada@example.com" });
    const account = await paygate.checkout.bankTransfer(session.accessCode);
    const short = await paygate.sandbox.transfer({ accountNumber: account.accountNumber, amount: "100.00" });
    expect(short.outcome).toBe("amount_mismatch");

    const delivered = async (type: string) => {
      const [d] = await receiver.waitForCount(
        1,
        20_000,
        (r) => r.json?.event === type && r.json.data.reference === session.reference,
      );
      if (!d) throw new Error(`no ${type}`);
      return paygate.webhooks.verify(d.raw, d.headers, merchant.secret);
    };
    const awaiting = await delivered("checkout.awaiting_transfer");
    if (awaiting.event !== "checkout.awaiting_transfer") throw new Error(awaiting.event);
    expect(awaiting.data).toEqual({
      reference: session.reference,
      amount: "2000.00",
      currency: "NGN",
      status: "awaiting_transfer",
      accountNumber: account.accountNumber,
      bankName: account.bankName,
      accountName: account.accountName,
      transferAmount: account.amount,
      expiresAt: account.expiresAt,
    });
    const mismatch = await delivered("checkout.amount_mismatch");
    if (mismatch.event !== "checkout.amount_mismatch") throw new Error(mismatch.event);
    expect(mismatch.data.accountNumber).toBe(account.accountNumber);
    expect(mismatch.data.amountMismatch).toMatchObject({ expected: account.amount, received: "100.00" });

    await paygate.sandbox.transfer({
      accountNumber: account.accountNumber,
      amount: mismatch.data.amountMismatch.due,
    });
    const completed = await delivered("payment.completed");
    if (completed.event !== "payment.completed") throw new Error(completed.event);
    expect(completed.data).toMatchObject({ status: "success", channel: "bank_transfer" });
    expect((await paygate.payments.verify(session.reference)).status).toBe("success");
  });

  it("refuses a delivery with its body changed, another secret or an old timestamp", async () => {
    const [delivery] = await receiver.waitForCount(1, 20_000, (r) => r.json?.event === "payment.completed");
    if (!delivery) throw new Error("no delivery");
    const verify = (body: string | Buffer, headers: Record<string, unknown>, secret = merchant.secret) => {
      try {
        paygate.webhooks.verify(body, headers as Record<string, string>, secret);
        return "valid";
      } catch (err) {
        expect(err).toBeInstanceOf(WebhookVerificationError);
        return (err as WebhookVerificationError).reason;
      }
    };
    expect(verify(delivery.raw, delivery.headers)).toBe("valid");
    expect(verify(delivery.text.replace(/"amount":"[^"]+"/, '"amount":"9.00"'), delivery.headers)).toBe(
      "invalid_signature",
    );
    const other = `whsec_${Buffer.from("another secret of 32 bytes long!").toString("base64")}`;
    expect(verify(delivery.raw, delivery.headers, other)).toBe("invalid_signature");
    const old = Number(delivery.headers["webhook-timestamp"]) - 3600;
    expect(verify(delivery.raw, { ...delivery.headers, "webhook-timestamp": String(old) })).toBe(
      "timestamp_out_of_range",
    );
    expect(verify(delivery.raw, { "webhook-id": delivery.id })).toBe("missing_headers");
    // A Headers object (what a fetch-style framework hands over) works the same.
    const headers = new Headers();
    for (const name of ["webhook-id", "webhook-timestamp", "webhook-signature"])
      headers.set(name, String(delivery.headers[name]));
    const event = paygate.webhooks.verify(
      delivery.text,
      headers,
      merchant.secret,
    ) as EventOf<"payment.completed">;
    expect(event.data.status).toBe("success");
  });

  it("throws one PaygateError with status, error, message, the request id and the field", async () => {
    const failure = await paygate.payments.initialize({ amount: "5000.001" }).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(PaygateError);
    const err = failure as PaygateError;
    expect(err).toMatchObject({ status: 400, code: "validation_error", field: "amount" });
    expect(err.message).toMatch(/^amount must have at most 2 decimals/);
    expect(err.requestId).toMatch(/\S{8,}/);

    const missing = (await paygate.payments
      .verify("PAY_TXN_NOSUCHREFERENCE")
      .catch((e) => e)) as PaygateError;
    expect(missing).toMatchObject({ status: 404, code: "transaction_not_found", field: null });

    const stranger = new Paygate({
      secretKey: "sk_test_notakeyofthisservice0123456789",
      baseUrl: `${app.url}/v1`,
    });
    const denied = (await stranger.refunds.list().catch((e) => e)) as PaygateError;
    expect(denied).toMatchObject({ status: 401, code: "invalid_api_key" });
  });

  it("creates and pages payment links with the session token", async () => {
    const a = await paygate.paymentLinks.create({ title: "Tote", amount: "18500.00" });
    const b = await paygate.paymentLinks.create({ title: "Any amount" });
    expect(a.paymentLinkUrl).toContain(`/l/${a.slug}`);
    const first = await paygate.paymentLinks.list({ limit: 1 });
    expect(first.links.map((l) => l.slug)).toEqual([b.slug]);
    const rest = await paygate.paymentLinks.list({ limit: 1, cursor: first.nextCursor ?? "" });
    expect(rest.links.map((l) => l.slug)).toEqual([a.slug]);
    const off = await paygate.paymentLinks.update(a.slug, { active: false });
    expect(off.active).toBe(false);
  });

  it("customers, saved cards and their charges: customers.*, authorizations.*, payments.chargeAuthorization", async () => {
    const email = `sdk-saver-${kind}-${Date.now()}@example.com`;
    const made = await paygate.customers.create({ email, name: "Ada" });
    expect(made.code).toMatch(/^CUS_/);
    expect((await paygate.customers.create({ email: email.toUpperCase() })).code).toBe(made.code);
    expect((await paygate.customers.list({ email })).customers.map((c) => c.code)).toEqual([made.code]);
    const session = await paygate.payments.initialize({ amount: "1000.00", email, saveCard: "optional" });
    await paygate.checkout.chargeCard(session.accessCode, {
      ...CARD,
      number: "4000002760003184",
      saveCard: true,
    });
    const saved = (await paygate.customers.retrieve(made.code)).authorizations[0];
    expect(saved).toMatchObject({ last4: "3184", status: "active" });
    const asked = await paygate.payments.chargeAuthorization({
      authorizationCode: saved?.authorizationCode ?? "",
      amount: "2500.00",
      reference: `PAY_TXN_SDK${Date.now()}`,
    });
    expect(asked).toMatchObject({ status: "requires_action", checkoutUrl: expect.stringContaining("/pay/") });
    const paid = await paygate.checkout.submitOtp(asked.accessCode ?? "", "123456");
    expect(paid.status).toBe("success");
    expect((await paygate.payments.verify(asked.reference)).authorization?.authorizationCode).toBe(
      saved?.authorizationCode,
    );
    const updated = await paygate.customers.update(made.code, { phone: "+2348031234567" });
    expect(updated.phone).toBe("+2348031234567");
    const off = await paygate.authorizations.deactivate(saved?.authorizationCode ?? "");
    expect(off.status).toBe("deactivated");
    const refused = (await paygate.payments
      .chargeAuthorization({ authorizationCode: off.authorizationCode, amount: "10.00" })
      .catch((e) => e)) as PaygateError;
    expect(refused).toBeInstanceOf(PaygateError);
    expect(refused).toMatchObject({ status: 409, code: "authorization_inactive" });
  });

  it("the session endpoints: merchants.login, withSession, the webhook endpoint and settings", async () => {
    const anonymous = new Paygate({ baseUrl: `${app.url}/v1` });
    const email = `sdk-login-${kind}-${Date.now()}@example.com`;
    const password = "correct horse battery staple";
    const signedUp = await anonymous.merchants.signup({ businessName: "SDK Shop", email, password });
    expect(signedUp.keys.test.secretKey).toMatch(/^sk_test_/);
    const session = await anonymous.merchants.login({ email, password });
    // Without two-factor sign-in the answer is the session (with it, a challenge: merchants.loginTwoFactor).
    if (!("accessToken" in session)) throw new Error("login answered a two-factor challenge");
    expect(session.accessToken).toMatch(/^mst_/);
    const console = anonymous.withSession(session.accessToken);
    const endpoint = await console.merchants.webhookEndpoint.update({ mode: "test", url: receiver.url });
    expect(endpoint.secret).toMatch(/^whsec_/);
    expect((await console.merchants.webhookEndpoint.retrieve({ mode: "test" }))?.url).toBe(receiver.url);
    const settings = await console.merchants.settings.update({ brandColor: "#123456" });
    expect(settings.brandColor).toBe("#123456");
    expect((await console.merchants.settings.retrieve()).brandColor).toBe("#123456");
    expect(await console.merchants.logout()).toEqual({ signedOut: true });
    const after = (await console.merchants.settings.retrieve().catch((e) => e)) as PaygateError;
    expect(after.code).toBe("invalid_session");
  });

  it("events.list types each payload by its event's type", async () => {
    const session = await paygate.payments.initialize({ amount: "300.00", email: "typed@example.com" });
    await paygate.checkout.chargeCard(session.accessCode, CARD);
    const page = await paygate.events.list({ reference: session.reference });
    const completed = page.events.find((e) => e.type === "payment.completed");
    if (completed?.type !== "payment.completed") throw new Error("no payment.completed event");
    // Narrowed by `type`: the payload is payment.completed's body (a type error otherwise).
    const settled: string | null = completed.payload.data.amountSettled;
    expect(completed.payload.event).toBe("payment.completed");
    expect(settled).toBe("300.00");
    const one = await paygate.events.retrieve(completed.id);
    expect(one.payload.event).toBe(one.type);
  });

  describe("retries, through a fault-injecting proxy", () => {
    let proxy: FaultProxy;
    let client: Paygate;
    const retries: Array<{ attempt: number; delayMs: number; reason: string }> = [];

    beforeAll(async () => {
      proxy = await startFaultProxy(app.url);
      client = new Paygate({
        secretKey: merchant.testKey,
        baseUrl: `${proxy.url}/v1`,
        baseDelayMs: 50,
        maxDelayMs: 200,
        onRetry: ({ attempt, delayMs, reason }) => retries.push({ attempt, delayMs, reason }),
      });
    });
    afterAll(async () => {
      await proxy?.close();
    });

    const calls = () => {
      const from = proxy.requests.length;
      retries.length = 0;
      return () => proxy.requests.slice(from);
    };

    it("retries a POST cut off after the server did it, with the same Idempotency-Key: one payment", async () => {
      const seen = calls();
      proxy.setRule(() => (seen().length === 1 ? "drop-after-forward" : "forward"));
      const session = await client.payments.initialize({ amount: "2500.00" });
      const tries = seen();
      expect(tries).toHaveLength(2);
      const keys = tries.map((t) => t.headers["idempotency-key"]);
      expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
      expect(keys[1]).toBe(keys[0]);
      // The server made it once: the retry is answered with the first answer, replayed.
      expect(tries[0]?.answer?.status).toBe(201);
      expect(tries[1]?.answer?.headers["idempotent-replayed"]).toBe("true");
      expect(JSON.parse(tries[0]?.answer?.body ?? "{}").data.reference).toBe(session.reference);
      expect(retries[0]?.reason).toMatch(/network error/);
    });

    it("waits as Retry-After says on 503, backs off on 429 and 500, then answers", async () => {
      const seen = calls();
      const script: Array<ReturnType<Parameters<FaultProxy["setRule"]>[0]>> = [
        {
          status: 503,
          headers: { "retry-after": "1" },
          body: { status: "failed", error: "service_unavailable", message: "Down." },
        },
        { status: 429, body: { status: "failed", error: "rate_limited", message: "Slow down." } },
        { status: 500, body: { status: "failed", error: "internal_error", message: "Oops." } },
      ];
      proxy.setRule(() => script.shift() ?? "forward");
      const started = Date.now();
      const session = await client.payments.initialize(
        { amount: "100.00" },
        { idempotencyKey: "sdk-retry-order-1" },
      );
      const tries = seen();
      expect(tries.map((t) => t.answer?.status)).toEqual([503, 429, 500, 201]);
      expect(new Set(tries.map((t) => t.headers["idempotency-key"]))).toEqual(new Set(["sdk-retry-order-1"]));
      expect(retries.map((r) => r.delayMs)[0]).toBe(1000);
      expect((tries[1]?.at ?? 0) - (tries[0]?.at ?? 0)).toBeGreaterThanOrEqual(950);
      expect(Date.now() - started).toBeLessThan(5_000);
      expect(session.amount).toBe("100.00");
    });

    it("abandons an attempt after the call's timeout and retries it", async () => {
      const seen = calls();
      let hung = false;
      proxy.setRule(() => {
        if (hung) return "forward";
        hung = true;
        return "hang";
      });
      // Long enough for the service on a busy machine, short for a test: the hung attempt ends at 1.5 s.
      const started = Date.now();
      const session = await client.payments.initialize({ amount: "300.00" }, { timeoutMs: 1_500 });
      const tries = seen();
      expect(tries.map((t) => t.rule)).toEqual(["hang", "forward"]);
      expect(new Set(tries.map((t) => t.headers["idempotency-key"])).size).toBe(1);
      expect(retries[0]?.reason).toBe("timeout");
      expect((tries[1]?.at ?? 0) - started).toBeGreaterThanOrEqual(1_500);
      expect(session.amount).toBe("300.00");
    });

    it("gives up after maxRetries with the last failure, and never retries a 4xx", async () => {
      let seen = calls();
      proxy.setRule(() => ({
        status: 503,
        body: { status: "failed", error: "service_unavailable", message: "Down." },
      }));
      const down = (await client.payments
        .verify("PAY_TXN_ANY", { maxRetries: 2 })
        .catch((e) => e)) as PaygateError;
      expect(down).toMatchObject({ status: 503, code: "service_unavailable", message: "Down." });
      expect(seen()).toHaveLength(3);

      seen = calls();
      proxy.setRule(() => "drop");
      const gone = (await client.payments
        .verify("PAY_TXN_ANY", { maxRetries: 1 })
        .catch((e) => e)) as PaygateError;
      expect(gone).toMatchObject({ status: 0, code: "network_error" });
      expect(seen()).toHaveLength(2);

      seen = calls();
      proxy.setRule(() => "forward");
      const invalid = (await client.refunds
        .create({ reference: "not a reference" })
        .catch((e) => e)) as PaygateError;
      expect(invalid).toMatchObject({ status: 400, code: "validation_error", field: "reference" });
      expect(seen()).toHaveLength(1);
    });
  });
});

/**
 * Deliveries from two instances (two server processes) on one database, each relaying events of payments made
 * through it: the SDK's verifier, made once with the endpoint's secret, accepts every real one whichever
 * instance signed it, and refuses a forgery signed under the empty key (what an unset secret decodes to), an
 * altered body and an old timestamp; a verifier is not made at all with an empty or short secret.
 */
describe.each(dbKinds)("webhook verification across two instances on one %s database", (kind) => {
  let instances: AppProc[] = [];
  let receiver: Receiver;
  let merchant: HookMerchant;

  beforeAll(async () => {
    const db = await freshDatabase(kind);
    instances = await Promise.all(
      ["a", "b"].map((name) =>
        startApp({ name: `sdk-hooks-${kind}-${name}`, databaseUrl: db.url, env: { LOG_LEVEL: "warn" } }),
      ),
    );
    receiver = await startReceiver();
    merchant = await merchantWithWebhook((instances[0] as AppProc).url, receiver.url);
  }, 180_000);

  it("verifies what either instance delivered, refuses forgeries, and makes no verifier from an empty secret", async () => {
    const on = (i: number) =>
      new Paygate({ secretKey: merchant.testKey, baseUrl: `${(instances[i] as AppProc).url}/v1` });
    const references: string[] = [];
    for (const i of [0, 1, 0, 1]) {
      const session = await on(i).payments.initialize({ amount: "1500.00", email: "ada@example.com" });
      await on(i).checkout.chargeCard(session.accessCode, CARD);
      references.push(session.reference);
    }
    const delivered = await receiver.waitForCount(
      references.length,
      30_000,
      (r) => r.json?.event === "payment.completed" && references.includes(r.json.data.reference),
    );
    const verifier = on(0).webhooks.verifier(merchant.secret);
    const verified = delivered.map((d) => verifier.verify(d.raw, d.headers));
    expect(
      verified.map((e) => (e.event === "payment.completed" ? e.data.reference : e.event)).sort(),
    ).toEqual([...references].sort());

    const [real] = delivered;
    if (!real) throw new Error("no delivery");
    expect(real.text).toContain('"1500.00"');
    const at = Math.floor(Date.now() / 1000);
    const forged = {
      "webhook-id": real.id,
      "webhook-timestamp": String(at),
      "webhook-signature": `v1,${createHmac("sha256", Buffer.alloc(0)).update(`${real.id}.${at}.`).update(real.raw).digest("base64")}`,
    };
    const reason = (f: () => unknown) => {
      try {
        f();
        return "accepted";
      } catch (err) {
        return err instanceof WebhookVerificationError ? err.reason : String(err);
      }
    };
    expect(reason(() => verifier.verify(real.raw, forged))).toBe("invalid_signature");
    expect(
      reason(() => verifier.verify(Buffer.from(real.text.replace("1500.00", "1.00")), real.headers)),
    ).toBe("invalid_signature");
    expect(
      reason(() => verifier.verify(real.raw, { ...real.headers, "webhook-timestamp": String(at - 3600) })),
    ).toBe("timestamp_out_of_range");
    for (const secret of ["", "whsec_", "whsec_!!!!", undefined])
      expect(() => on(1).webhooks.verifier(secret)).toThrow(WebhookSecretError);
  }, 90_000);
});
