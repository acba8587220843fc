import { Webhook } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import { PaygateError, WebhookVerificationError } from "../src/errors.js";
import { retryAfterMs } from "../src/transport.js";
import { verifyWebhook } from "../src/webhooks.js";

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
