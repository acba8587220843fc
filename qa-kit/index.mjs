// @paygate/qa-kit: Playwright fixtures for a Paygate checkout in test mode.
//
// Everything here goes through the public API (with a test secret key) and the hosted page's roles and
// accessible names, the ones docs/testing.md lists as stable. Nothing reads the page's markup or the
// service's database, so the kit works against any Paygate deployment a test key opens.
//
// Configuration, from the environment:
//   PAYGATE_URL             the deployment (default http://127.0.0.1:3000)
//   PAYGATE_TEST_KEY        a test secret key (sk_test_...)
//   PAYGATE_WAIT_BUDGET_MS  fail a test that spent longer waiting for the service (unset: report only)
//   PAYGATE_RECEIVER_HOST, PAYGATE_RECEIVER_PORT, PAYGATE_RECEIVER_URL  where startWebhookReceiver listens and
//                           the URL the deployment reaches it by (default 127.0.0.1, any free port, its own URL)
import { createHmac, timingSafeEqual } from "node:crypto";
import { createServer } from "node:http";
import { test as base, expect } from "@playwright/test";

/** The sandbox's test cards (docs/testing.md). Any other number is declined with test_card_unknown. */
export const TEST_CARDS = Object.freeze({
  success: "4242424242424242",
  declined: "4000000000000002",
  insufficientFunds: "4000000000009995",
  otp: "4000000000003220",
  /** A second card (Mastercard) that succeeds: a customer with two saved cards. */
  secondCard: "5555555555554444",
  /** Pays and is saved; every later charge of its authorization is declined (card_declined). */
  savesThenDeclines: "4000000000000341",
  /** Pays and is saved; every later charge of its authorization asks for the OTP (requires_action). */
  savesThenOtp: "4000002760003184",
  /** 3-D Secure: the customer confirms or declines on the (sandbox) bank's page (checkout.confirmOnBankPage). */
  threeDSecure: "4000000000003063",
});

/**
 * The one-time password the sandbox accepts for TEST_CARDS.otp. A wrong one is typed again (3 tries); the
 * third wrong one fails the attempt with invalid_otp.
 */
export const TEST_OTP = "123456";

/** Sandbox account numbers with a fixed behaviour (docs/testing.md). */
export const TEST_ACCOUNTS = Object.freeze({
  /** Never anyone's account: money sent to it comes back by an automatic refund (`unknown_account`). */
  unknown: "9999999999",
});

/**
 * The time the current test spent in the kit's waits for the service, each wait logged: waitForEvent and
 * waitForDelivery, the server's answer when opening the page, and the page states an action brings about
 * (results, headings, expectVisible). Waits that are the browser's or the page's own work (loading the
 * page's code, switching tabs, going back to the shop) are not counted. The `test` below resets it per test and
 * reports the total beside the budget (WAIT_BUDGET_MS, 2 s: every outcome is meant to be reachable in under
 * 2 s); it fails a test over its budget only when the suite asks, with `waitBudgetMs` (or
 * PAYGATE_WAIT_BUDGET_MS): a loaded machine makes a green test slow, not wrong.
 */
const waits = { totalMs: 0, log: [] };

/**
 * Run `wait` and count its time as waiting for the service, less `notCountedMs` (a part that is the page's
 * own schedule, such as its poll interval).
 */
export async function timed(what, wait, { notCountedMs = 0 } = {}) {
  const started = performance.now();
  try {
    return await wait();
  } finally {
    const ms = performance.now() - started;
    const counted = Math.max(0, ms - notCountedMs);
    waits.totalMs += counted;
    waits.log.push(
      notCountedMs
        ? `${what} ${Math.round(counted)} ms (of ${Math.round(ms)})`
        : `${what} ${Math.round(ms)} ms`,
    );
  }
}

/** How often the hosted page polls while something is in flight (lib/checkout/poll-delay.ts). */
export const PAGE_POLL_MS = 1_500;

/** What the current test has waited so far: total milliseconds and one line per wait. */
export function waited() {
  return { totalMs: waits.totalMs, log: [...waits.log] };
}

/** The budget of waiting per test that every test's report names: 2 s (PAYGATE_WAIT_BUDGET_MS when set). */
export const WAIT_BUDGET_MS = Number(process.env.PAYGATE_WAIT_BUDGET_MS || 2_000);

/** The budget a test fails over: only one the suite set (`waitBudgetMs`, PAYGATE_WAIT_BUDGET_MS), else none. */
const ENFORCED_BUDGET_MS = process.env.PAYGATE_WAIT_BUDGET_MS ? WAIT_BUDGET_MS : undefined;

/**
 * The line each test reports: its waiting against the budget, and each wait. `enforced`: the test fails over it.
 */
export function waitReport(totalMs, budgetMs, enforced, log) {
  const total = Math.round(totalMs);
  const over = total > budgetMs;
  const verdict = over ? (enforced ? "over budget" : "over budget, not enforced") : "within budget";
  return `${total} ms of ${budgetMs} ms (${verdict})${log.length ? `: ${log.join(", ")}` : ""}`;
}

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
      headers: { ...(!headers?.authorization && { "x-api-key": this.secretKey }), ...headers },
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

  /**
   * POST /v1/sandbox/clock/advance with `authorization`: that saved card's clock moves `seconds` forward (a
   * card whose expiry passes is `expired` from then on); answers the authorization.
   */
  advanceCardClock(authorizationCode, seconds) {
    return this.call("POST", "/v1/sandbox/clock/advance", {
      body: { authorization: authorizationCode, seconds },
    });
  }

  /**
   * POST /v1/payment/charge-authorization: charge a saved card with the customer away (amount 2500.00 unless
   * given). Answers {status: success | failed | requires_action | pending, reason?, checkoutUrl?, ...}.
   */
  chargeAuthorization(authorizationCode, charge = {}) {
    return this.call("POST", "/v1/payment/charge-authorization", {
      body: { authorizationCode, amount: "2500.00", ...charge },
    });
  }

  /** GET /v1/customers/{code}: the customer with its saved cards (`authorizations`). */
  customer(code) {
    return this.call("GET", `/v1/customers/${encodeURIComponent(code)}`);
  }

  /** GET /v1/customers?email=: the customer of an email, or undefined. */
  async customerByEmail(email) {
    return (await this.call("GET", `/v1/customers?email=${encodeURIComponent(email)}`)).customers[0];
  }

  /** POST /v1/authorizations/{code}/deactivate: the saved card can never be charged again. */
  deactivateCard(authorizationCode) {
    return this.call("POST", `/v1/authorizations/${encodeURIComponent(authorizationCode)}/deactivate`);
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

  /**
   * GET /v1/refunds?reference=: the refunds of a payment (automatic ones too), newest first; without a
   * reference the key's latest refunds, those of no payment too (money sent to TEST_ACCOUNTS.unknown).
   */
  async refunds(reference) {
    const query = reference === undefined ? "limit=100" : `reference=${encodeURIComponent(reference)}`;
    return (await this.call("GET", `/v1/refunds?${query}`)).refunds;
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

  /**
   * Wait until an event of `type` exists for `reference` (what the webhook would carry), and answer it. Fails
   * after `timeout` (2 s: the time every outcome takes at most); the time counts against the test's budget.
   */
  async waitForEvent(type, reference, { timeout = 2_000 } = {}) {
    return this.#waitForEventWhere(type, reference, timeout, "exists", () => true);
  }

  /**
   * Wait until the event of `type` for `reference` is delivered to the webhook endpoint (a 2xx answered), and
   * answer it with every attempt (failed ones first). Needs a webhook endpoint set for the key's mode.
   */
  async waitForDelivery(type, reference, { timeout = 2_000 } = {}) {
    return this.#waitForEventWhere(type, reference, timeout, "delivered", (e) => e.delivered);
  }

  async #waitForEventWhere(type, reference, timeout, what, done) {
    let found;
    await timed(`event ${type} ${what}`, () =>
      expect
        .poll(
          async () => {
            [found] = await this.events({ type, reference, limit: 1 });
            return found !== undefined && done(found);
          },
          { message: `event ${type} for ${reference} ${what}`, timeout, intervals: [50, 100, 200] },
        )
        .toBe(true),
    );
    return found;
  }

  /**
   * POST /v1/merchants/auth/signup: a new merchant (what QA can do on staging), for what a test key alone cannot
   * reach (the webhook endpoint). Answers a Paygate with its test key and the session token of its console.
   */
  async signUp({
    businessName = "QA Shop",
    email = `qa-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`,
    password = "correct horse battery staple",
  } = {}) {
    const res = await this.request.post("/v1/merchants/auth/signup", {
      data: { businessName, email, password },
    });
    const envelope = await res.json();
    if (!res.ok()) throw new PaygateError(res.status(), envelope.error, envelope.message);
    const { keys, accessToken, merchant } = envelope.data;
    return { paygate: new Paygate(this.request, { secretKey: keys.test.secretKey }), accessToken, merchant };
  }

  /** PUT /v1/merchants/webhook (session token): this mode's webhook endpoint; answers it with its secret. */
  setWebhook(accessToken, url) {
    return this.call("PUT", "/v1/merchants/webhook", {
      body: { mode: "test", url },
      headers: { authorization: `Bearer ${accessToken}` },
    });
  }
}

/**
 * The HMAC key of an endpoint's `whsec_…` secret, refusing one anyone could sign under: unset, empty, not
 * base64, or under 16 bytes once decoded (docs/guides/verify-webhooks.md, rule 0: the merchant's own code must
 * refuse these too).
 */
export function webhookKey(secret) {
  const encoded = typeof secret === "string" ? secret.replace(/^whsec_/, "") : "";
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(encoded) || Buffer.from(encoded, "base64").length < 16) {
    throw new Error(
      "PAYGATE_WEBHOOK_SECRET must be your endpoint's whsec_ secret (16 bytes or more): it is unset, empty or too short",
    );
  }
  return Buffer.from(encoded, "base64");
}

/** Whether a delivery carries a Standard Webhooks signature of `key` over its exact body, signed within 5 minutes. */
function signedBy(key, headers, body) {
  const id = headers["webhook-id"];
  const timestamp = headers["webhook-timestamp"];
  const signatures = headers["webhook-signature"];
  if (typeof id !== "string" || typeof timestamp !== "string" || typeof signatures !== "string") return false;
  if (!/^\d{1,12}$/.test(timestamp) || Math.abs(Date.now() / 1000 - Number(timestamp)) > 300) return false;
  const expected = createHmac("sha256", key).update(`${id}.${timestamp}.`).update(body).digest();
  return signatures.split(" ").some((entry) => {
    const [version, signature] = entry.split(",", 2);
    const given = Buffer.from(signature ?? "", "base64");
    return version === "v1" && given.length === expected.length && timingSafeEqual(given, expected);
  });
}

/**
 * A webhook endpoint for a test: an HTTP server answering each delivery with the next of `replies` (the last one
 * repeats), recording what arrived. The deployment must reach it: by default it listens on 127.0.0.1 (a
 * deployment on the same machine); set PAYGATE_RECEIVER_HOST/PORT/URL for a tunnel to a remote staging.
 * `verifyWith(secret)` (the secret setWebhook answered) makes it check each delivery's signature as a
 * merchant's server must: `verified` on each request, and 400 to one that is not signed by that secret. A
 * secret anyone could sign under (unset, empty, under 16 bytes) is refused there, as the guide's code does.
 */
export async function startWebhookReceiver({ replies = [200] } = {}) {
  const requests = [];
  let key = null;
  const server = createServer((req, res) => {
    const chunks = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => {
      const raw = Buffer.concat(chunks);
      const body = raw.toString("utf8");
      let json;
      try {
        json = JSON.parse(body);
      } catch {
        json = undefined;
      }
      const verified = key ? signedBy(key, req.headers, raw) : undefined;
      const status = verified === false ? 400 : replies[Math.min(requests.length, replies.length - 1)];
      requests.push({ headers: req.headers, body, json, answered: status, verified });
      res.writeHead(status, { "content-type": "text/plain" });
      res.end(status < 300 ? "ok" : "not now");
    });
  });
  const host = process.env.PAYGATE_RECEIVER_HOST ?? "127.0.0.1";
  await new Promise((resolve) =>
    server.listen(Number(process.env.PAYGATE_RECEIVER_PORT ?? 0), host, resolve),
  );
  const { port } = server.address();
  return {
    url: process.env.PAYGATE_RECEIVER_URL ?? `http://${host}:${port}/webhooks/paygate`,
    requests,
    verifyWith(secret) {
      key = webhookKey(secret);
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
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

  /** Open a session's checkoutUrl; answers once the page has loaded (the browser's load event). */
  async open(session) {
    this.session = session;
    // The service's part: its answer, the page as the server renders it.
    await timed("open the checkout", async () => {
      await this.page.goto(session.checkoutUrl, { waitUntil: "commit" });
      await expect(this.page.getByRole("tablist", { name: "Payment method" })).toBeVisible();
    });
    // The browser's part, not counted: the rest of the page (its code) arriving.
    await this.page.waitForLoadState("load");
  }

  /**
   * Wait until `locator` is visible (a page state the service brings about); counts against the budget. With
   * `{poll: true}` for a state the page learns by polling (a change made through the API, not on the page):
   * one poll interval (PAGE_POLL_MS) is the page's own schedule, and only the time beyond it counts.
   */
  async expectVisible(locator, { poll = false, ...options } = {}) {
    await timed(`visible ${locator}`, () => expect(locator).toBeVisible(options), {
      notCountedMs: poll ? PAGE_POLL_MS : 0,
    });
  }

  /** The payment method tab (Card, Bank transfer, Bank payment, USSD). */
  async choose(method) {
    const tab = this.page.getByRole("tab", { name: method, exact: true });
    // The page's own work, not the service's: not counted. Selecting a selected tab changes nothing. A tab is
    // a link to the page with that method chosen, so it answers before the page's code has run too.
    if ((await tab.getAttribute("aria-selected")) !== "true") await tab.click();
    await expect(tab).toHaveAttribute("aria-selected", "true");
    return this.page.getByRole("tabpanel", { name: method });
  }

  /**
   * Pay by card; answers once the page has the network's answer (result, OTP step or decline). `saveCard`
   * ticks the box "Save this card for future payments to …" (a payment initialized with saveCard: "optional").
   */
  async payByCard(number = TEST_CARDS.success, { expiry = "12/34", cvv = "123", saveCard = false } = {}) {
    const panel = await this.choose("Card");
    // After a decline the form waits under it until "Try another card" is chosen.
    const again = panel.getByRole("button", { name: "Try another card" });
    if (await again.isVisible()) await again.click();
    const pay = panel.getByRole("button", { name: /^Pay / });
    await panel.getByLabel("Card number").fill(number);
    await panel.getByLabel("Expiry (MM/YY)").fill(expiry);
    await panel.getByLabel("CVV").fill(cvv);
    if (saveCard)
      await panel.getByRole("checkbox", { name: /^Save this card for future payments to / }).check();
    await pay.click();
  }

  /**
   * A charge of a saved card that answered requires_action, finished as the customer would: its checkoutUrl
   * shows the saved card and the bank's question, the OTP is answered. Answers once the page shows the result.
   */
  async finishSavedCardCharge(charge, otp = TEST_OTP) {
    this.session = {
      reference: charge.reference,
      accessCode: charge.accessCode,
      checkoutUrl: charge.checkoutUrl,
    };
    await timed("open the saved card's charge", async () => {
      await this.page.goto(charge.checkoutUrl, { waitUntil: "commit" });
      await expect(this.page.getByText("Your saved card", { exact: true })).toBeVisible();
    });
    await this.page.waitForLoadState("load");
    await this.enterOtp(otp);
  }

  /** The one-time password step of TEST_CARDS.otp. */
  async enterOtp(otp = TEST_OTP) {
    await this.expectVisible(this.page.getByRole("heading", { name: "Enter the one-time password" }));
    await this.page.getByLabel("One-time password").fill(otp);
    await this.page.getByRole("button", { name: /^Confirm payment/ }).click();
  }

  /**
   * TEST_CARDS.threeDSecure's step: continue to the (sandbox) bank's page and approve or decline there; the
   * bank sends the customer back to the checkout, which shows the outcome (or the card form after a decline).
   */
  async confirmOnBankPage(decision = "approve") {
    const go = this.page.getByRole("link", { name: "Continue to your bank" });
    await this.expectVisible(go);
    await go.click();
    const button =
      decision === "approve"
        ? this.page.getByRole("button", { name: "Approve" })
        : this.page.getByRole("button", { name: "Decline" });
    await this.expectVisible(button);
    await button.click();
  }

  /** Ask for a one-time account number; answers it as the API shows it ({accountNumber, expiresAt, ...}). */
  async getTransferAccount() {
    const panel = await this.choose("Bank transfer");
    const get = panel.getByRole("button", { name: /^Get (a new )?account number$/ });
    await get.click();
    await this.expectVisible(this.page.getByRole("heading", { name: /^Transfer / }));
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
    await this.pickBank(panel, bank);
    await panel.getByRole("button", { name: /^Pay / }).click();
    await this.decide(decision);
  }

  /** The bank picker of bank payment and USSD: the server's plain list until the page's code makes it searchable. */
  async pickBank(panel, bank) {
    const picker = panel.getByRole("combobox", { name: "Your bank" });
    if ((await picker.evaluate((el) => el.tagName)) === "SELECT") {
      await picker.selectOption({ label: bank });
    } else {
      await picker.fill(bank);
      await this.page.getByRole("option", { name: bank, exact: true }).click();
    }
  }

  /** USSD: choose the bank and phone, get the code, then approve (or decline) on the "phone". */
  async payByUssd({ bank = "Zenith Bank", phone = "08031234567", decision = "approve" } = {}) {
    const panel = await this.choose("USSD");
    await this.pickBank(panel, bank);
    await panel.getByLabel("Phone number").fill(phone);
    await panel.getByRole("button", { name: "Get USSD code" }).click();
    await this.expectVisible(this.page.getByRole("heading", { name: "Dial this code on your phone" }));
    await this.decide(decision);
  }

  async decide(decision) {
    const name = decision === "approve" ? "Approve the payment" : "Decline the payment";
    await this.page.getByRole("button", { name }).click();
    if (decision !== "approve") {
      await this.expectVisible(this.page.getByRole("heading", { name: "The payment was not approved" }));
    }
  }

  /** The customer cancels, and confirms. */
  async cancel() {
    await this.page.getByRole("button", { name: "Cancel payment" }).click();
    await this.page.getByRole("button", { name: "Yes, cancel payment" }).click();
  }

  /**
   * The final screen shows `status` (success, failed or abandoned); `{poll: true}` when it came about through
   * the API (the page learns it on its next poll).
   */
  async expectResult(status, { poll = false } = {}) {
    await this.expectVisible(this.page.getByRole("heading", { name: RESULT_HEADINGS[status] }), { poll });
  }

  /**
   * Return to the merchant's callbackUrl ("Return now", rather than waiting out the countdown) and answer the
   * query it was given (status, reference, amount, currency), checking its status.
   */
  async expectReturn(callbackUrl, status) {
    const prefix = callbackUrl.split("?")[0];
    const back = this.page.getByRole("link", { name: /^Return (now|to )/ });
    // The browser going to the shop is not the service's time: not counted.
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
 * Playwright's `test` with three fixtures: `paygate` (the API with PAYGATE_TEST_KEY, one per worker),
 * `checkout` (the hosted page in this test's page) and `saveCard` (a card saved as a customer saves one); and
 * `waitBudgetMs` (an option, unset by default, or PAYGATE_WAIT_BUDGET_MS): every test's waits for the service
 * are added up and shown as the test's `waited` annotation beside the budget (2 s, or `waitBudgetMs`), always;
 * a test that waited longer fails only when `waitBudgetMs` is set.
 */
export const test = base.extend({
  waitBudgetMs: [ENFORCED_BUDGET_MS, { option: true }],
  waitBudget: [
    async ({ waitBudgetMs }, use, testInfo) => {
      waits.totalMs = 0;
      waits.log = [];
      await use(undefined);
      const enforced = typeof waitBudgetMs === "number";
      const budget = enforced ? waitBudgetMs : WAIT_BUDGET_MS;
      const report = waitReport(waits.totalMs, budget, enforced, waits.log);
      testInfo.annotations.push({ type: "waited", description: report });
      if (enforced && testInfo.status === "passed" && Math.round(waits.totalMs) > budget) {
        throw new Error(`The test waited for the service longer than its waitBudgetMs: ${report}`);
      }
    },
    { auto: true },
  ],
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
  /**
   * Save a card as a customer would: a payment with saveCard "optional" for `email`, paid on the hosted page
   * with the box ticked. Answers {authorizationCode, customerCode, reference}, ready for
   * paygate.chargeAuthorization. The page is this test's, left on the payment's result.
   */
  saveCard: async ({ paygate, checkout }, use) => {
    await use(
      async (number = TEST_CARDS.success, { email = `qa-saver-${Date.now()}@example.com`, expiry } = {}) => {
        const session = await paygate.initialize({ email, saveCard: "optional" });
        await checkout.open(session);
        await checkout.payByCard(number, { saveCard: true, ...(expiry && { expiry }) });
        await checkout.expectResult("success");
        const verified = await paygate.verify(session.reference);
        if (!verified.authorization) throw new Error(`the card ${number} was not saved`);
        return {
          authorizationCode: verified.authorization.authorizationCode,
          customerCode: verified.customer.code,
          reference: session.reference,
        };
      },
    );
  },
});

export { expect };
