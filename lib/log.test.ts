import { describe, expect, it } from "vitest";
import { redact } from "./log";

describe("redact", () => {
  it("masks fields whose names look secret and keeps the rest", () => {
    const out = redact({
      requestId: "req_1",
      path: "/v1/payment/initialize",
      secretKey: "sk_test_x",
      apiKey: "k",
      "x-api-key": "k",
      accessCode: "abc",
      access_code: "abc",
      authorization: "Bearer x",
      password: "p",
      sessionToken: "t",
      cardNumber: "4242",
      number: "4242",
      cvv: "123",
      otp: "123456",
      webhookSecret: "whsec_x",
      status: 201,
    });
    expect(out).toEqual({
      requestId: "req_1",
      path: "/v1/payment/initialize",
      secretKey: "[redacted]",
      apiKey: "[redacted]",
      "x-api-key": "[redacted]",
      accessCode: "[redacted]",
      access_code: "[redacted]",
      authorization: "[redacted]",
      password: "[redacted]",
      sessionToken: "[redacted]",
      cardNumber: "[redacted]",
      number: "[redacted]",
      cvv: "[redacted]",
      otp: "[redacted]",
      webhookSecret: "[redacted]",
      status: 201,
    });
  });
});
