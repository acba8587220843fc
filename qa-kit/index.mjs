// @paygate/qa-kit: Playwright fixtures for a Paygate checkout in test mode.
//
// Everything here goes through the public API (with a test secret key) and the hosted page's roles and
// accessible names, the ones docs/testing.md lists as stable. Nothing reads the page's markup or the
// service's database, so the kit works against any Paygate deployment a test key opens.
//
// Configuration, from the environment:
//   PAYGATE_URL       the deployment (default http://127.0.0.1:3000)
//   PAYGATE_TEST_KEY  a test secret key (sk_test_...)
import { test as base, expect } from "@playwright/test";

/** The sandbox's test cards (docs/testing.md). Any other number is declined with test_card_unknown. */
export const TEST_CARDS = Object.freeze({
  success: "4242424242424242",
  declined: "4000000000000002",
  insufficientFunds: "4000000000009995",
  otp: "4000000000003220",
});

/** The one-time password the sandbox accepts for TEST_CARDS.otp; any other fails with invalid_otp. */
export const TEST_OTP = "123456";

/** The heading of each final screen of the hosted page. */
const RESULT_HEADINGS = Object.freeze({
  success: "Payment successful",
  failed: "Payment failed",
  abandoned: "Payment cancelled",
});

/** A failure envelope from the API, with its code, message and HTTP status. */
export class PaygateError extends Error {
  constructor(status, code, message) {
    super(`${status} ${code}: ${message}`);
    this.name = "PaygateError";
    this.status = status;
    this.code = code;
  }
}

/** The API, with a test secret key. */
export class Paygate {
  /**
   * @param {import("@playwright/test").APIRequestContext} request a request context whose baseURL is the deployment
   * @param {{ secretKey: string }} options
   */
  constructor(request, { secretKey }) {
    if (!secretKey?.startsWith("sk_test_")) {
      throw new Error("The QA kit needs a test secret key (sk_test_...): set PAYGATE_TEST_KEY.");
    }
    this.request = request;
    this.secretKey = secretKey;
  }

  async call(method, path, { body, headers } = {}) {
    const res = await this.request.fetch(path, {
      method,
      headers: { "x-api-key": this.secretKey, ...headers },
      ...(body !== undefined && { data: body }),
    });
    const text = await res.text();
    let envelope;
    try {
      envelope = JSON.parse(text);
    } catch {
      throw new PaygateError(res.status(), "not_json", text.slice(0, 200));
    }
    if (!res.ok()) throw new PaygateError(res.status(), envelope.error, envelope.message);
    return envelope.data;
  }

  /** POST /v1/payment/initialize: a test payment (amount 5000.00 NGN and a customer email unless given). */
  initialize(payment = {}) {
    return this.call("POST", "/v1/payment/initialize", {
      body: { amount: "5000.00", email: "qa@example.com", ...payment },
    });
  }

  /** GET /v1/payment/verify/{reference}: what the merchant's server sees before fulfilling. */
  verify(reference) {
    return this.call("GET", `/v1/payment/verify/${encodeURIComponent(reference)}`);
  }

  /** POST /v1/sandbox/clock/advance: that transaction's deadlines come `seconds` closer; answers as verify. */
  advanceClock(reference, seconds) {
    return this.call("POST", "/v1/sandbox/clock/advance", { body: { reference, seconds } });
  }

  /** POST /v1/sandbox/transfers: money arrives at a virtual account, as the bank would report it. */
  transfer({ accountNumber, amount, sessionId }) {
    return this.call("POST", "/v1/sandbox/transfers", {
      body: { accountNumber, amount, ...(sessionId && { sessionId }) },
    });
  }

  /** POST /v1/sandbox/authorizations: the customer approves or declines in their bank app or on USSD. */
  authorize(reference, decision) {
    return this.call("POST", "/v1/sandbox/authorizations", { body: { reference, decision } });
  }

  /** POST /v1/refunds: refund all (no `amount`) or part of a paid payment; answers the refund (pending). */
  refund({ reference, amount, reason }) {
    return this.call("POST", "/v1/refunds", {
      body: { reference, ...(amount !== undefined && { amount }), ...(reason !== undefined && { reason }) },
    });
  }

  /** POST /v1/sandbox/refunds/{id}: the sandbox bank settles a pending refund now, `processed` or `failed`. */
  settleRefund(id, outcome = "processed") {
    return this.call("POST", `/v1/sandbox/refunds/${encodeURIComponent(id)}`, { body: { outcome } });
  }

  /** GET /v1/refunds?reference=: the refunds of a payment (automatic ones too), newest first. */
  async refunds(reference) {
    return (await this.call("GET", `/v1/refunds?reference=${encodeURIComponent(reference)}`)).refunds;
  }

  /** The checkout as the hosted page sees it (with the account of an awaited transfer), by its access code. */
  checkoutStatus(session) {
    return this.call("GET", "/v1/payment/checkout/verify", {
      headers: { "x-access-code": session.accessCode },
    });
  }

  /** GET /v1/events: the events of this key's mode, newest first, each with its delivery attempts. */
  async events({ type, reference, limit = 100 } = {}) {
    const query = new URLSearchParams({ limit: String(limit) });
    if (type) query.set("type", type);
    if (reference) query.set("reference", reference);
    return (await this.call("GET", `/v1/events?${query}`)).events;
  }

  /** Wait until an event of `type` exists for `reference` (what the webhook would carry), and answer it. */
  async waitForEvent(type, reference, { timeout = 10_000 } = {}) {
    let found;
    await expect
      .poll(
        async () => {
          [found] = await this.events({ type, reference, limit: 1 });
          return found !== undefined;
        },
        { message: `event ${type} for ${reference}`, timeout, intervals: [100, 250, 500] },
      )
      .toBe(true);
    return found;
  }
}

/** The hosted checkout page, driven by role and accessible name only. */
export class Checkout {
  /**
   * @param {import("@playwright/test").Page} page
   * @param {Paygate} paygate
   */
  constructor(page, paygate) {
    this.page = page;
    this.paygate = paygate;
    this.session = undefined;
  }

  /** Open a session's checkoutUrl and wait until the page can take input. */
  async open(session) {
    this.session = session;
    await this.page.goto(session.checkoutUrl);
    await expect(this.page.getByRole("tablist", { name: "Payment method" })).toBeVisible();
  }

  /** The payment method tab (Card, Bank transfer, Bank payment, USSD). */
  async choose(method) {
    const tab = this.page.getByRole("tab", { name: method, exact: true });
    await tab.click();
    await expect(tab).toHaveAttribute("aria-selected", "true");
    return this.page.getByRole("tabpanel", { name: method });
  }

  /** Pay by card; answers once the page has the network's answer (result, OTP step or decline). */
  async payByCard(number = TEST_CARDS.success, { expiry = "12/34", cvv = "123" } = {}) {
    const panel = await this.choose("Card");
    const pay = panel.getByRole("button", { name: /^Pay / });
    // Pay is enabled once the page's code runs: typing earlier could be lost.
    await expect(pay).toBeEnabled();
    await panel.getByLabel("Card number").fill(number);
    await panel.getByLabel("Expiry (MM/YY)").fill(expiry);
    await panel.getByLabel("CVV").fill(cvv);
    await pay.click();
  }

  /** The one-time password step of TEST_CARDS.otp. */
  async enterOtp(otp = TEST_OTP) {
    await expect(this.page.getByRole("heading", { name: "Enter the one-time password" })).toBeVisible();
    await this.page.getByLabel("One-time password").fill(otp);
    await this.page.getByRole("button", { name: /^Confirm payment/ }).click();
  }

  /** Ask for a one-time account number; answers it as the API shows it ({accountNumber, expiresAt, ...}). */
  async getTransferAccount() {
    const panel = await this.choose("Bank transfer");
    const get = panel.getByRole("button", { name: /^Get (a new )?account number$/ });
    await get.click();
    await expect(this.page.getByRole("heading", { name: /^Transfer / })).toBeVisible();
    const status = await this.paygate.checkoutStatus(this.requireSession());
    return status.transfer;
  }

  /**
   * Pay by bank transfer: without `amount` the page's own test button sends the exact amount; with one, that
   * amount arrives at the account through the sandbox API (under- and over-payments, duplicates).
   */
  async payByTransfer({ amount } = {}) {
    const account = await this.getTransferAccount();
    if (amount === undefined) {
      await this.page.getByRole("button", { name: "Send the exact amount" }).click();
      return account;
    }
    await this.paygate.transfer({ accountNumber: account.accountNumber, amount });
    return account;
  }

  /** The test button that makes the awaited bank transfer fail. */
  async failTransfer() {
    await this.page.getByRole("button", { name: "Fail the payment" }).click();
  }

  /** Bank payment: choose the bank, pay, then approve (or decline) in the "banking app". */
  async approveInBankApp({ bank = "Zenith Bank", decision = "approve" } = {}) {
    const panel = await this.choose("Bank payment");
    const picker = panel.getByRole("combobox", { name: "Your bank" });
    await picker.fill(bank);
    await this.page.getByRole("option", { name: bank, exact: true }).click();
    await panel.getByRole("button", { name: /^Pay / }).click();
    await this.decide(decision);
  }

  /** USSD: choose the bank and phone, get the code, then approve (or decline) on the "phone". */
  async payByUssd({ bank = "Zenith Bank", phone = "08031234567", decision = "approve" } = {}) {
    const panel = await this.choose("USSD");
    await panel.getByLabel("Your bank").selectOption({ label: bank });
    await panel.getByLabel("Phone number").fill(phone);
    await panel.getByRole("button", { name: "Get USSD code" }).click();
    await expect(this.page.getByRole("heading", { name: "Dial this code on your phone" })).toBeVisible();
    await this.decide(decision);
  }

  async decide(decision) {
    const name = decision === "approve" ? "Approve the payment" : "Decline the payment";
    await this.page.getByRole("button", { name }).click();
    if (decision !== "approve") {
      await expect(this.page.getByRole("heading", { name: "The payment was not approved" })).toBeVisible();
    }
  }

  /** The customer cancels, and confirms. */
  async cancel() {
    await this.page.getByRole("button", { name: "Cancel payment" }).click();
    await this.page.getByRole("button", { name: "Yes, cancel payment" }).click();
  }

  /** The final screen shows `status` (success, failed or abandoned). */
  async expectResult(status) {
    await expect(this.page.getByRole("heading", { name: RESULT_HEADINGS[status] })).toBeVisible();
  }

  /**
   * Return to the merchant's callbackUrl ("Return now", rather than waiting out the countdown) and answer the
   * query it was given (status, reference, amount, currency), checking its status.
   */
  async expectReturn(callbackUrl, status) {
    const prefix = callbackUrl.split("?")[0];
    const back = this.page.getByRole("link", { name: /^Return (now|to )/ });
    // The countdown may have gone back already; then there is no link left to press.
    await back.click({ timeout: 5_000 }).catch(() => undefined);
    await this.page.waitForURL((url) => url.href.startsWith(prefix), { timeout: 15_000 });
    const query = Object.fromEntries(new URL(this.page.url()).searchParams);
    expect(query.status).toBe(status);
    if (this.session) expect(query.reference).toBe(this.session.reference);
    return query;
  }

  requireSession() {
    if (!this.session) throw new Error("Open a checkout first: checkout.open(session).");
    return this.session;
  }
}

/**
 * Playwright's `test` with two fixtures: `paygate` (the API with PAYGATE_TEST_KEY, one per worker) and
 * `checkout` (the hosted page in this test's page).
 */
export const test = base.extend({
  paygate: [
    async ({ playwright }, use) => {
      const request = await playwright.request.newContext({
        baseURL: process.env.PAYGATE_URL ?? "http://127.0.0.1:3000",
      });
      await use(new Paygate(request, { secretKey: process.env.PAYGATE_TEST_KEY ?? "" }));
      await request.dispose();
    },
    { scope: "worker" },
  ],
  checkout: async ({ page, paygate }, use) => {
    await use(new Checkout(page, paygate));
  },
});

export { expect };
