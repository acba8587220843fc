import Ajv2020 from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { describe, expect, it } from "vitest";
import { EVENT_TYPES } from "@/lib/webhooks/event-types";
import { openApiDocument } from "./document";

/**
 * Each event's body in the document is exact: what lib/webhooks/event-data.ts and the emitters deliver, and
 * nothing else (every delivered body of the webhook suites is checked against it: tests/helpers/contract.ts,
 * checkWebhook). Here: the schemas are strict and tell the events apart.
 */
const doc = openApiDocument("http://127.0.0.1");
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);
ajv.addSchema(doc, "doc");
const validator = (event: string) =>
  ajv.compile({
    $ref: `doc#/webhooks/${event.replace(/\//g, "~1")}/post/requestBody/content/application~1json/schema`,
  });

const base = { reference: "PAY_TXN_8Q2M4K7ZP1XW3N5R6T9Y", amount: "5050.00", currency: "NGN" };
const timestamp = "2026-11-27T10:00:00.000Z";

describe("webhook event bodies in the document", () => {
  it("describes checkout.awaiting_transfer with its virtual account, and nothing more", () => {
    const validate = validator("checkout.awaiting_transfer");
    const data = {
      ...base,
      status: "awaiting_transfer",
      accountNumber: "9912345678",
      bankName: "Paygate Sandbox Bank",
      accountName: "Paygate / Demo Store",
      transferAmount: "5050.00",
      expiresAt: timestamp,
    };
    expect(
      validate({ event: "checkout.awaiting_transfer", data, timestamp }),
      ajv.errorsText(validate.errors),
    ).toBe(true);
    expect(validate({ event: "checkout.awaiting_transfer", data: { ...data, extra: 1 }, timestamp })).toBe(
      false,
    );
    expect(validate({ event: "checkout.completed", data, timestamp })).toBe(false);
  });

  it("describes checkout.amount_mismatch with what arrived and what is due", () => {
    const validate = validator("checkout.amount_mismatch");
    const data = {
      ...base,
      status: "awaiting_transfer",
      accountNumber: "9912345678",
      amountMismatch: { expected: "5050.00", received: "5000.00", due: "50.00" },
    };
    expect(
      validate({ event: "checkout.amount_mismatch", data, timestamp }),
      ajv.errorsText(validate.errors),
    ).toBe(true);
    const { amountMismatch: _, ...without } = data;
    expect(validate({ event: "checkout.amount_mismatch", data: without, timestamp })).toBe(false);
  });

  it("describes payment events with the verified fields, and refunds as the refund", () => {
    const payment = {
      ...base,
      status: "success",
      channel: "card",
      fees: "75.75",
      amountSettled: "5050.00",
      paidAt: timestamp,
      metadata: { orderId: "1042" },
      customer: { code: "CUS_4GM7QX2LP9ZR8TN3VB6K", email: "ada@example.com", name: null },
      authorization: null,
    };
    const completed = validator("payment.completed");
    expect(completed({ event: "payment.completed", data: payment, timestamp })).toBe(true);
    // A payment that saved (or charged) a card names it.
    const saved = {
      ...payment,
      authorization: {
        authorizationCode: "AUTH_8Q2M4K7ZP1XW3N5R6T9Y",
        brand: "visa",
        last4: "4242",
        expMonth: 12,
        expYear: 2030,
        bank: "Paygate Sandbox Bank",
        reusable: true,
        status: "active",
        createdAt: timestamp,
        lastUsedAt: null,
      },
    };
    expect(completed({ event: "payment.completed", data: saved, timestamp })).toBe(true);
    expect(
      completed({ event: "payment.completed", data: { ...saved, authorization: { token: "x" } }, timestamp }),
    ).toBe(false);
    expect(
      completed({ event: "payment.completed", data: { ...payment, accountNumber: "1" }, timestamp }),
    ).toBe(false);
    const refund = validator("refund.processed");
    expect(refund({ event: "refund.processed", data: payment, timestamp })).toBe(false);
  });

  it("names one schema per resource (no input/output twins)", () => {
    const names = Object.keys((doc as unknown as { components: { schemas: object } }).components.schemas);
    expect(names.filter((n) => n.endsWith("Output"))).toEqual([]);
    expect(Object.keys(doc.webhooks ?? {})).toEqual(expect.arrayContaining([...EVENT_TYPES]));
  });
});
