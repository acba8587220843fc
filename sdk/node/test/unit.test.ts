import { createHmac } from "node:crypto";
import { Webhook } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import { PaygateError, WebhookSecretError, WebhookVerificationError } from "../src/errors.js";
import { Paygate } from "../src/index.js";
import { retryAfterMs } from "../src/transport.js";
import { verifyWebhook, WebhookVerifier } from "../src/webhooks.js";

/**
 * The SDK's parts that need no server: Retry-After, the field of a validation failure, and webhook
 * verification against deliveries signed by the reference Standard Webhooks library (the service signs with
 * it too). The SDK against the real service: tests/sdk.test.ts and tests/sdk-pack.test.ts.
 */
describe("Retry-After", () => {
  it("reads delta-seconds and HTTP dates, and nothing else", () => {
    expect(retryAfterMs("2")).toBe(2000);
    expect(retryAfterMs(" 0 ")).toBe(0);
    const now = Date.parse("2026-11-27T10:00:00Z");
    expect(retryAfterMs("Fri, 27 Nov 2026 10:00:03 GMT", now)).toBe(3000);
    expect(retryAfterMs("Fri, 27 Nov 2026 09:59:00 GMT", now)).toBe(0);
    expect(retryAfterMs(null)).toBeNull();
    expect(retryAfterMs("soon")).toBeNull();
  });
});

describe("PaygateError", () => {
  const error = (message: string, code = "validation_error") =>
    new PaygateError({ status: 400, code, message, requestId: "req_1" });

  it("names the field of a validation failure, as the API's messages start with it", () => {
    expect(error("amount must be greater than zero.").field).toBe("amount");
    expect(error("email is required.").field).toBe("email");
    expect(error("metadata.items[2].sku must be a string (got number).").field).toBe("metadata.items[2].sku");
    expect(error('body has unknown field "extra".').field).toBeNull();
    expect(error("amount must be greater than zero.", "invalid_state").field).toBeNull();
    expect(error("x").requestId).toBe("req_1");
  });
});

describe("verifyWebhook", () => {
  const secret = `whsec_${Buffer.from("0123456789abcdef0123456789abcdef").toString("base64")}`;
  const body = JSON.stringify({
    event: "checkout.completed",
    data: { reference: "PAY_TXN_1", amount: "10.00", currency: "NGN", status: "success" },
    timestamp: "2026-11-27T10:00:00.000Z",
  });
  const signed = (at = new Date()) => {
    const id = "evt_0123456789abcdefghijklmn";
    return {
      "webhook-id": id,
      "webhook-timestamp": String(Math.floor(at.getTime() / 1000)),
      "webhook-signature": new Webhook(secret).sign(id, at, body),
    };
  };
  const reason = (f: () => unknown) => {
    try {
      f();
      return "valid";
    } catch (err) {
      expect(err).toBeInstanceOf(WebhookVerificationError);
      return (err as WebhookVerificationError).reason;
    }
  };

  it("accepts what the reference library signs, as a string, bytes or with Headers", () => {
    const event = verifyWebhook(body, signed(), secret);
    expect(event.event).toBe("checkout.completed");
    expect(verifyWebhook(Buffer.from(body), new Headers(signed()), secret).data).toMatchObject({
      reference: "PAY_TXN_1",
    });
    // Two signatures while a rolled secret still signs: any one that matches will do.
    const headers = signed();
    headers["webhook-signature"] = `v1,AAAA ${headers["webhook-signature"]}`;
    expect(reason(() => verifyWebhook(body, headers, secret))).toBe("valid");
  });

  it("refuses another body, another secret, an old or future timestamp, and missing headers", () => {
    const other = `whsec_${Buffer.from("fedcba9876543210fedcba9876543210").toString("base64")}`;
    expect(reason(() => verifyWebhook(body.replace("10.00", "99.00"), signed(), secret))).toBe(
      "invalid_signature",
    );
    expect(reason(() => verifyWebhook(body, signed(), other))).toBe("invalid_signature");
    expect(reason(() => verifyWebhook(body, signed(new Date(Date.now() - 600_000)), secret))).toBe(
      "timestamp_out_of_range",
    );
    expect(reason(() => verifyWebhook(body, signed(new Date(Date.now() + 600_000)), secret))).toBe(
      "timestamp_out_of_range",
    );
    const { "webhook-signature": _, ...unsigned } = signed();
    expect(reason(() => verifyWebhook(body, unsigned, secret))).toBe("missing_headers");
    expect(reason(() => verifyWebhook(body, { ...signed(), "webhook-timestamp": "yesterday" }, secret))).toBe(
      "invalid_timestamp",
    );
  });
});

describe("webhook secrets too short to sign anything", () => {
  const body = JSON.stringify({
    event: "payment.completed",
    data: { reference: "PAY_TXN_FORGED", amount: "1000000.00", currency: "NGN", status: "success" },
    timestamp: "2026-11-27T10:00:00.000Z",
  });
  /** A delivery forged by someone who signs with `key` (an empty key: what an unset secret decodes to). */
  const forged = (key: Buffer, at = Math.floor(Date.now() / 1000)) => {
    const id = "evt_forgedforgedforgedforge";
    const mac = createHmac("sha256", key).update(`${id}.${at}.${body}`).digest("base64");
    return { "webhook-id": id, "webhook-timestamp": String(at), "webhook-signature": `v1,${mac}` };
  };
  const refusal = (f: () => unknown) => {
    try {
      f();
    } catch (err) {
      return err;
    }
    throw new Error("accepted a forged delivery");
  };

  it.each([
    ["unset", undefined],
    ["empty", ""],
    ["the bare prefix", "whsec_"],
    ["a prefix over no base64 at all", "whsec_!!!!"],
    ["a prefix over 3 bytes", "whsec_AAAA"],
    ["15 bytes", `whsec_${Buffer.alloc(15, 7).toString("base64")}`],
    ["15 bytes without the prefix", Buffer.alloc(15, 7).toString("base64")],
  ])("a secret that is %s verifies nothing: the verifier is refused, naming the variable", (_, secret) => {
    for (const attempt of [
      () => verifyWebhook(body, forged(Buffer.alloc(0)), secret as string),
      () => new WebhookVerifier(secret).verify(body, forged(Buffer.alloc(0))),
      () =>
        new Paygate({ baseUrl: "https://pay.example.com/v1" }).webhooks.verify(
          body,
          forged(Buffer.alloc(0)),
          secret as string,
        ),
    ]) {
      const err = refusal(attempt);
      expect(err).toBeInstanceOf(WebhookSecretError);
      // Not a verification failure: a handler that answers those 400 must not swallow this one.
      expect(err).not.toBeInstanceOf(WebhookVerificationError);
      expect((err as Error).message).toContain("PAYGATE_WEBHOOK_SECRET");
      expect((err as Error).message).toMatch(/16 bytes/);
    }
    // Construction alone is refused, so a server checks its secret when it starts, not at its first webhook.
    expect(() => new WebhookVerifier(secret)).toThrow(WebhookSecretError);
  });

  it("the error names the variable the merchant keeps the secret in", () => {
    expect(
      () =>
        new WebhookVerifier(process.env.SHOP_PAYGATE_HOOK_SECRET_UNSET, {
          secretName: "SHOP_PAYGATE_HOOK_SECRET_UNSET",
        }),
    ).toThrow(/SHOP_PAYGATE_HOOK_SECRET_UNSET is not set/);
    expect(() => new WebhookVerifier("whsec_!!!!")).toThrow(/PAYGATE_WEBHOOK_SECRET is not a whsec_/);
  });

  it("16 bytes and more verify; forged, tampered, old and wrong-secret deliveries are refused", () => {
    const key = Buffer.from("0123456789abcdef");
    const secret = `whsec_${key.toString("base64")}`;
    const verifier = new WebhookVerifier(secret);
    expect(verifier.verify(body, forged(key)).event).toBe("payment.completed");
    const reasonOf = (f: () => unknown) => (refusal(f) as WebhookVerificationError).reason;
    expect(reasonOf(() => verifier.verify(body, forged(Buffer.alloc(0))))).toBe("invalid_signature");
    expect(reasonOf(() => verifier.verify(body.replace("1000000.00", "1.00"), forged(key)))).toBe(
      "invalid_signature",
    );
    expect(reasonOf(() => verifier.verify(`${body} `, forged(key)))).toBe("invalid_signature");
    expect(reasonOf(() => verifier.verify(body, forged(Buffer.from("fedcba9876543210"))))).toBe(
      "invalid_signature",
    );
    const old = Math.floor(Date.now() / 1000) - 301;
    expect(reasonOf(() => verifier.verify(body, forged(key, old)))).toBe("timestamp_out_of_range");
    expect(verifier.verify(body, forged(key, old), { now: (old + 300) * 1000 }).event).toBe(
      "payment.completed",
    );
    const strict = new WebhookVerifier(secret, { toleranceSeconds: 10 });
    expect(reasonOf(() => strict.verify(body, forged(key, Math.floor(Date.now() / 1000) - 11)))).toBe(
      "timestamp_out_of_range",
    );
    // A signature of the right length made under the empty key, beside a wrong one: still refused.
    const both = forged(key);
    both["webhook-signature"] = `${forged(Buffer.alloc(0))["webhook-signature"]} v1,${"A".repeat(43)}=`;
    expect(reasonOf(() => verifier.verify(body, both))).toBe("invalid_signature");
  });
});
