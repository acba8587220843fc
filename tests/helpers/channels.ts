import { randomBytes } from "node:crypto";
import { expect } from "vitest";
import type { Target } from "../setup/servers";
import { type Client, initialize, type Merchant, signup } from "./api";
import { testDb } from "./db";

/** Helpers shared by the checkout channel suites (tests/channels-*.test.ts). */

export const CARDS = {
  success: "4242424242424242",
  declined: "4000000000000002",
  insufficient: "4000000000009995",
  otp: "4000000000003220",
  /** Luhn-valid, not a test card. */
  unknown: "4111111111111111",
} as const;
export const OTP = "123456";

/** The saved-card test cards (docs/testing.md "Saved cards"). */
export const SAVED_CARDS = {
  success: "4242424242424242",
  /** A second card (Mastercard) that succeeds. */
  second: "5555555555554444",
  /** Saves; every later charge of its authorization is declined. */
  declinesLater: "4000000000000341",
  /** Saves; every later charge of its authorization asks for the OTP 123456. */
  otpLater: "4000002760003184",
  otp: "4000000000003220",
} as const;

const nextYear = new Date().getUTCFullYear() + 2;

export function card(number: string, overrides: Record<string, unknown> = {}) {
  return { number, expiryMonth: 12, expiryYear: nextYear, cvv: "123", ...overrides };
}

export type Session = {
  reference: string;
  accessCode: string;
  amount: string;
  cardFee: string;
  transferFee: string;
  cardTotal: string;
  transferTotal: string;
  [k: string]: unknown;
};

/**
 * One merchant shared by the tests of a describe block that need no merchant of their own (signup runs
 * scrypt, which adds up over a whole suite). Each test still works on its own transactions.
 */
export function sharedMerchant(api: Client): () => Promise<Merchant> {
  let merchant: Promise<Merchant> | undefined;
  return () => {
    merchant ??= signup(api);
    return merchant;
  };
}

/** Initialize a payment and return its session, failing loudly if initialize did not answer 201. */
export async function start(api: Client, m: Merchant, body: Record<string, unknown> = {}): Promise<Session> {
  const res = await initialize(api, m.testKey, { amount: "5000", email: "payer@example.com", ...body });
  if (res.status !== 201) throw new Error(`initialize failed: ${res.status} ${res.text}`);
  return res.body.data as Session;
}

/** A bound checkout: every call carries the session's access code. */
export function checkout(api: Client, s: { accessCode: string }) {
  const h = { "x-access-code": s.accessCode };
  return {
    verify: () => api.get("/v1/payment/checkout/verify", h),
    banks: (country = "NG") => api.get(`/v1/payment/checkout/banks?country=${country}`, h),
    bankTransfer: () => api.post("/v1/payment/checkout/charge/bank-transfer", {}, h),
    simulate: (scenario: string) =>
      api.post("/v1/payment/checkout/charge/bank-transfer/simulate", { scenario }, h),
    card: (body: Record<string, unknown>) => api.post("/v1/payment/checkout/charge/card", body, h),
    otp: (otp: string) => api.post("/v1/payment/checkout/charge/card/otp", { otp }, h),
    bankPayment: (bankCode: string) => api.post("/v1/payment/checkout/charge/bank-payment", { bankCode }, h),
    ussd: (body: Record<string, unknown>) => api.post("/v1/payment/checkout/charge/ussd", body, h),
    cancel: () => api.post("/v1/payment/checkout/cancel", {}, h),
  };
}

/** POST /v1/sandbox/transfers with the merchant's test key. */
export function transfer(
  api: Client,
  m: Merchant,
  body: { accountNumber: string; amount: string; sessionId?: string },
) {
  return api.post("/v1/sandbox/transfers", body, { "x-api-key": m.testKey });
}

/** POST /v1/sandbox/authorizations with the merchant's test key. */
export function authorize(api: Client, m: Merchant, reference: string, decision: "approve" | "decline") {
  return api.post("/v1/sandbox/authorizations", { reference, decision }, { "x-api-key": m.testKey });
}

export function verify(api: Client, m: Merchant, reference: string) {
  return api.get(`/v1/payment/verify/${reference}`, { "x-api-key": m.testKey });
}

export function sessionId(tag = "s"): string {
  return `${tag}_${randomBytes(8).toString("hex")}`;
}

const big = (v: unknown): bigint => (v === null || v === undefined ? 0n : BigInt(v as string | number));

/** Major-unit decimal string ("5050.00") to minor units, exactly. */
export function minor(amount: string): bigint {
  const [whole, frac = ""] = amount.split(".");
  return BigInt(whole as string) * 100n + BigInt(frac.padEnd(2, "0").slice(0, 2) || "0");
}

/** Everything the database holds about a transaction's money. */
export async function ledger(target: Target, reference: string) {
  const db = testDb(target);
  const tx = await db
    .selectFrom("transactions")
    .selectAll()
    .where("reference", "=", reference)
    .executeTakeFirstOrThrow();
  const [inbound, attempts, refunds, accounts] = await Promise.all([
    db.selectFrom("inbound_transfers").selectAll().where("transaction_id", "=", tx.id).execute(),
    db.selectFrom("charge_attempts").selectAll().where("transaction_id", "=", tx.id).execute(),
    db
      .selectFrom("refunds")
      .selectAll()
      .where("transaction_id", "=", tx.id)
      .where("type", "=", "automatic")
      .orderBy("created_at")
      .execute(),
    db.selectFrom("virtual_accounts").selectAll().where("transaction_id", "=", tx.id).execute(),
  ]);
  return { tx, inbound, attempts, refunds, accounts };
}

/**
 * Money is conserved per transaction (docs/refunds.md): everything received (inbound transfers + money captured
 * by card, bank payment or USSD) equals what is credited (the total, once, if paid, less merchant refunds not
 * failed, plus automatic refunds that failed and came back to the merchant) plus refunds processed and pending,
 * plus transfers of too little still held on an account whose window is open (docs/states.md). A finished
 * transaction holds nothing.
 */
export async function expectConservation(target: Target, reference: string) {
  const l = await ledger(target, reference);
  const all = await testDb(target)
    .selectFrom("refunds")
    .selectAll()
    .where("transaction_id", "=", l.tx.id)
    .execute();
  const received =
    l.inbound.reduce((s, r) => s + big(r.amount_minor), 0n) +
    l.attempts.reduce((s, r) => s + big(r.captured_minor), 0n);
  const credited =
    (l.tx.status === "success" ? big(l.tx.total_minor) : 0n) +
    big(l.tx.refund_credit_minor) -
    big(l.tx.amount_refunded_minor);
  const sum = (status: string) =>
    all.filter((r) => r.status === status).reduce((s, r) => s + big(r.amount_minor), 0n);
  const refunded = sum("processed");
  const pending = sum("pending");
  const held = l.inbound.filter((t) => t.partial === "held").reduce((s, r) => s + big(r.amount_minor), 0n);
  expect(
    { received, creditedPlusRefundsPlusHeld: credited + refunded + pending + held },
    `conservation for ${reference} (status ${l.tx.status}, held ${held})`,
  ).toEqual({ received, creditedPlusRefundsPlusHeld: received });
  if (["success", "failed", "abandoned"].includes(l.tx.status))
    expect(held, `nothing held on finished ${reference}`).toBe(0n);
  return l;
}

/** An ISO 8601 timestamp as the API writes them (`Date.prototype.toISOString`). */
export const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
