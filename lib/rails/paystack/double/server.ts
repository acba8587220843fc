import { createHmac, randomInt } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { SIGNATURE_HEADER } from "../shapes";
import {
  bankSteps,
  type CardStep,
  cardScenario,
  DOUBLE_OTP,
  DOUBLE_OTP_TRIES,
  DOUBLE_PIN,
  type SavedScenario,
  savedScenario,
} from "./catalogue";
import { type Matched, PaystackContract } from "./contract";

/**
 * A Paystack double: an HTTP server that answers like Paystack's API along its documented flows (next steps,
 * 3-D Secure, pay-offline bank and USSD charges, temporary transfer accounts, refunds, lost answers, 5xx)
 * and sends Paystack's webhooks signed as Paystack signs them (HMAC-SHA512 of the body with the account's
 * secret key). It holds every request to the vendored OpenAPI document (contract.ts): a request the document
 * does not allow is answered 400 and recorded as a violation, and `assertClean()` fails the test that made it.
 * Its own answers are checked against the document's response schemas the same way.
 *
 * Tests drive the customer's side through its methods (in-process) or its control routes under `/__double/`
 * (serve.ts, for the browser tests): approve a bank or USSD charge, pass 3-D Secure, transfer money to a
 * temporary account, settle a refund, send any event (forged, repeated).
 */
type Domain = "test" | "live";

type Account = { number: string; name: string; bank: string; expiresAt: number };

type Charge = {
  id: number;
  reference: string;
  key: string;
  domain: Domain;
  amount: number;
  currency: string;
  email: string;
  channel: "card" | "bank" | "ussd" | "bank_transfer";
  status: string;
  steps: CardStep[];
  outcome: "success" | { failed: string };
  message: string | null;
  createdAt: number;
  paidAt: number | null;
  checks: number;
  pendingChecks: number;
  /** Wrong OTPs sent so far: the charge stays at send_otp until the third (DOUBLE_OTP_TRIES). */
  wrongOtps?: number;
  card?: { last4: string; bin: string; expMonth: string; expYear: string; brand: string };
  /** A card charge's authorization, reusable once it succeeded (the code charge_authorization takes). */
  authorizationCode?: string;
  reusable?: boolean;
  /** What a charge of this card's authorization does (catalogue.ts savedScenario). */
  saved?: SavedScenario;
  bankName?: string;
  url?: string;
  ussdCode?: string;
  account?: Account;
  displayText?: string;
};

type Refund = {
  id: number;
  chargeReference: string;
  chargeId: number;
  key: string;
  domain: Domain;
  amount: number;
  currency: string;
  status: string;
  merchantNote: string;
  createdAt: number;
};

export type Delivery = { url: string; status: number; body: string; signature: string; answer: string };

export type DoubleOptions = {
  port?: number;
  host?: string;
  /** Where the bank's page sends the customer back (the Callback URL of a Paystack integration). */
  callbackUrl?: string;
  /** Where events go when a key has no address of its own. */
  webhookUrl?: string;
  /** How long the "lost answer" card holds its answer (longer than the connector's PAYSTACK_TIMEOUT_MS). */
  lostAnswerMs?: number;
  /** How long the "held answer" card holds its answer (a process is killed meanwhile). */
  heldAnswerMs?: number;
  /** Temporary accounts close at most this long after they are issued (Paystack's own limit). */
  maxAccountTtlMs?: number;
  /** Account numbers handed out in turn (Paystack reuses its pool's numbers once they expire). */
  accountPool?: string[];
  /** Answer every call with this HTTP status instead (a Paystack outage). */
  outage?: number;
};

export type PaystackDouble = {
  url: string;
  /** Accept a secret key (and send its account's events to `webhookUrl`). */
  addKey(secretKey: string, webhookUrl?: string): void;
  violations(): string[];
  /** Throws with every violation recorded since the last call (and forgets them). */
  assertClean(): void;
  requests(): Array<{ method: string; path: string; status: number }>;
  charge(reference: string): Charge | undefined;
  charges(): Charge[];
  refunds(): Refund[];
  /** The customer approves (or declines) a pay-offline charge, or passes (fails) 3-D Secure. */
  complete(reference: string, outcome: "success" | "failed"): Promise<Delivery | null>;
  /** Money arrives at a temporary account: the exact amount in time pays it; anything else is rejected. */
  transfer(reference: string, amount: number, at?: number): Promise<Delivery>;
  settleRefund(id: number, status: "processed" | "failed"): Promise<Delivery>;
  /** Send an event as Paystack would (signed with `signWith`, default the charge's key) to `url`. */
  sendEvent(input: {
    body: string;
    signWith: string;
    url?: string;
    signature?: string | null;
  }): Promise<Delivery>;
  /** The last event sent, to send again (a retry or a replay). */
  lastEvent(): Delivery | undefined;
  setOutage(status: number | null): void;
  /** Hand out these account numbers in turn from now on (null: random ones), as `accountPool` does. */
  setAccountPool(numbers: string[] | null): void;
  /** Hold Paystack's events back (recorded, not sent) while true: a test of what happens without them. */
  muteWebhooks(muted: boolean): void;
  close(): Promise<void>;
};

/** What the double says when an OTP was wrong and the charge waits for another. */
const WRONG_OTP_TEXT = "Invalid OTP. Please enter the OTP sent to 080****5678";

const OFFLINE_TEXT = "Please complete authorization process on your mobile app";
const STEP_TEXT: Record<CardStep, string> = {
  send_pin: "Please enter your 4-digit PIN",
  send_otp: "Please enter the OTP sent to 080****5678",
  send_phone: "Please enter your phone number",
  send_birthday: "Please enter your date of birth",
  send_address: "Please send details for address verification",
  open_url: "Please authorize this payment on your bank's page",
};

function iso(ms: number): string {
  return new Date(ms).toISOString();
}

function brandOf(number: string): string {
  if (number.startsWith("4")) return "visa";
  if (/^5[1-5]/.test(number)) return "mastercard";
  if (/^50[67]|^65/.test(number)) return "verve";
  return "card";
}

export async function startPaystackDouble(options: DoubleOptions = {}): Promise<PaystackDouble> {
  const contract = new PaystackContract();
  const keys = new Map<string, { webhookUrl?: string }>();
  const charges = new Map<string, Charge>();
  const refunds: Refund[] = [];
  const violations: string[] = [];
  const requests: Array<{ method: string; path: string; status: number }> = [];
  const timers = new Set<ReturnType<typeof setTimeout>>();
  const deliveries: Delivery[] = [];
  let outage = options.outage ?? null;
  let muted = false;
  let nextId = 3_000_000 + randomInt(100_000);
  /** Reusable authorizations of successful card charges: whose key, which card, which customer's email. */
  const authorizations = new Map<
    string,
    { key: string; card: NonNullable<Charge["card"]>; email: string; scenario: SavedScenario }
  >();
  let pool = options.accountPool ?? null;
  let poolIndex = 0;
  let url = "";

  function domainOf(key: string): Domain {
    return key.startsWith("sk_live_") ? "live" : "test";
  }

  /** A transaction as the document's answers describe it: every field any of its schemas requires. */
  function transaction(c: Charge) {
    const card = c.card;
    const channel = c.channel === "bank" ? "bank" : c.channel;
    return {
      id: c.id,
      domain: c.domain,
      status: c.status,
      reference: c.reference,
      receipt_number: null,
      amount: c.amount,
      message: c.message,
      gateway_response: c.status === "success" ? "Approved" : (c.message ?? "Pending"),
      helpdesk_link: null,
      redirect_url: null,
      // The document's schemas type these as strings (Paystack sends null until paid).
      paid_at: iso(c.paidAt ?? c.createdAt),
      paidAt: iso(c.paidAt ?? c.createdAt),
      created_at: iso(c.createdAt),
      createdAt: iso(c.createdAt),
      transaction_date: iso(c.createdAt),
      channel,
      currency: c.currency,
      ip_address: "127.0.0.1",
      metadata: { custom_fields: [] },
      log: null,
      fees: Math.floor(c.amount / 100),
      fees_split: null,
      authorization: {
        authorization_code: c.authorizationCode ?? `AUTH_${c.id}`,
        bin: card?.bin ?? "XXXXXX",
        last4: card?.last4 ?? "XXXX",
        exp_month: card?.expMonth ?? "12",
        exp_year: card?.expYear ?? "9999",
        channel,
        card_type: card ? `${card.brand} DEBIT` : c.channel,
        bank: c.bankName ?? "TEST BANK",
        country_code: "NG",
        brand: card?.brand ?? c.channel,
        reusable: c.reusable === true,
        signature: `SIG_${c.id}`,
        account_name: null,
        receiver_bank_account_number: c.account?.number ?? null,
        receiver_bank: c.account?.bank ?? null,
      },
      customer: {
        id: 1000 + (c.id % 1000),
        first_name: "",
        last_name: "",
        email: c.email,
        customer_code: `CUS_${c.id}`,
        phone: "",
        metadata: {},
        risk_action: "default",
        international_format_phone: "",
      },
      plan: null,
      split: {},
      order_id: null,
      requested_amount: c.amount,
      pos_transaction_data: null,
      source: null,
      fees_breakdown: null,
      connect: null,
      plan_object: {},
      subaccount: {},
      // Beyond the document (lib/rails/paystack/shapes.ts): what a next step or pending charge carries.
      display_text:
        c.displayText ?? (c.status === "success" ? "Payment successful" : (c.message ?? "Charge attempted")),
      ...(c.url && { url: c.url }),
      ...(c.ussdCode && { ussd_code: c.ussdCode }),
      ...(c.account && {
        account_name: c.account.name,
        account_number: c.account.number,
        bank: { slug: "test-bank", name: c.account.bank, id: 24 },
        account_expires_at: iso(c.account.expiresAt),
      }),
    };
  }

  function refundData(r: Refund) {
    return {
      integration: 100_001,
      transaction: r.chargeId,
      dispute: null,
      settlement: null,
      id: r.id,
      domain: r.domain,
      currency: r.currency,
      amount: r.amount,
      status: r.status,
      refunded_at: r.status === "processed" ? iso(Date.now()) : null,
      refunded_by: "merchant@example.com",
      customer_note: "Refund",
      merchant_note: r.merchantNote,
      deducted_amount: r.amount,
      fully_deducted: 1,
      createdAt: iso(r.createdAt),
      bank_reference: null,
      transaction_reference: r.chargeReference,
      reason: "Refund",
      customer: {
        id: 1,
        first_name: "",
        last_name: "",
        email: "customer@example.com",
        customer_code: "CUS_1",
        phone: "",
        metadata: "",
        risk_action: "default",
        international_format_phone: "",
      },
      refund_type: "full",
      transaction_amount: charges.get(r.chargeReference)?.amount ?? r.amount,
      initiated_by: "api",
      refund_channel: "card",
      session_id: null,
      collect_account_number: false,
    };
  }

  async function deliver(input: { body: string; signWith: string; url?: string; signature?: string | null }) {
    const target = input.url ?? keys.get(input.signWith)?.webhookUrl ?? options.webhookUrl;
    const signature =
      input.signature === undefined
        ? createHmac("sha512", input.signWith).update(input.body).digest("hex")
        : (input.signature ?? "");
    if (!target) throw new Error("the double has no webhook address for this key");
    const headers: Record<string, string> = { "content-type": "application/json" };
    if (input.signature !== null) headers[SIGNATURE_HEADER] = signature;
    const res = await fetch(target, { method: "POST", headers, body: input.body });
    const delivery = {
      url: target,
      status: res.status,
      body: input.body,
      signature,
      answer: await res.text(),
    };
    deliveries.push(delivery);
    return delivery;
  }

  function event(c: Charge, name: string, data: Record<string, unknown>): Promise<Delivery> {
    const body = JSON.stringify({ event: name, data });
    if (muted) return Promise.resolve({ url: "", status: 0, body, signature: "", answer: "muted" });
    return deliver({ body, signWith: c.key });
  }

  function finish(c: Charge, outcome: "success" | { failed: string }): Promise<Delivery> | null {
    if (outcome === "success") {
      // A card paid: its authorization can be charged again (Paystack marks card authorizations reusable).
      if (c.channel === "card" && c.card && c.saved !== "not_reusable") {
        c.authorizationCode ??= `AUTH_${c.id}`;
        c.reusable = true;
        if (!authorizations.has(c.authorizationCode))
          authorizations.set(c.authorizationCode, {
            key: c.key,
            card: c.card,
            email: c.email,
            scenario: c.saved ?? "success",
          });
      }
      c.status = "success";
      c.message = null;
      c.displayText = "Payment successful";
      c.paidAt = Date.now();
      return event(c, "charge.success", transaction(c));
    }
    c.status = "failed";
    c.message = outcome.failed;
    c.displayText = outcome.failed;
    return null;
  }

  /** Begin a charge's flow: its first step, or its outcome at once. */
  function begin(c: Charge) {
    const first = c.steps.shift();
    if (first) {
      c.status = first;
      c.displayText = STEP_TEXT[first];
      if (first === "open_url") c.url = `${url}/__double/3ds/${encodeURIComponent(c.reference)}`;
      return;
    }
    void finish(c, c.outcome)?.catch(() => {});
  }

  function send(res: ServerResponse, matched: Matched | undefined, status: number, body: unknown) {
    if (matched)
      for (const p of contract.checkAnswer(matched, status, body)) violations.push(`double answered: ${p}`);
    res.writeHead(status, { "content-type": "application/json" });
    res.end(JSON.stringify(body));
  }

  function ok(res: ServerResponse, matched: Matched, data: unknown, message = "Charge attempted") {
    send(res, matched, 200, { status: true, message, data });
  }

  function refuse(res: ServerResponse, matched: Matched | undefined, status: number, message: string) {
    send(res, matched, status, { status: false, message });
  }

  async function api(
    req: IncomingMessage,
    res: ServerResponse,
    path: string,
    query: URLSearchParams,
    body: string,
  ) {
    const method = req.method ?? "GET";
    const checked = contract.checkRequest({ method, path, query, headers: req.headers, body });
    if (checked.problems.length > 0 || !checked.matched) {
      violations.push(...checked.problems);
      return refuse(
        res,
        checked.matched,
        checked.matched ? 400 : 404,
        `double: ${checked.problems.join("; ")}`,
      );
    }
    const matched = checked.matched;
    if (outage) return refuse(res, matched, outage, "Service unavailable");
    const key = String(req.headers.authorization).slice("Bearer ".length);
    if (!keys.has(key)) return refuse(res, matched, 401, "Invalid key");
    const json = body ? (JSON.parse(body) as Record<string, unknown>) : {};
    const mine = (reference: string) => {
      const c = charges.get(reference);
      return c && c.key === key ? c : undefined;
    };

    switch (`${matched.method} ${matched.template}`) {
      case "get /balance":
        return ok(res, matched, [{ currency: "NGN", balance: 0 }], "Balances retrieved");
      case "post /charge":
        return createCharge(res, matched, key, json, req);
      case "post /transaction/charge_authorization":
        return chargeAuthorization(res, matched, key, json);
      case "post /charge/submit_pin":
      case "post /charge/submit_otp":
      case "post /charge/submit_phone":
      case "post /charge/submit_birthday":
      case "post /charge/submit_address": {
        const c = mine(String(json.reference));
        const step = `send_${matched.template.slice("/charge/submit_".length)}` as CardStep;
        if (!c || c.status !== step) return refuse(res, matched, 400, "Transaction reference is invalid");
        if (step === "send_pin" && json.pin !== DOUBLE_PIN) {
          void finish(c, { failed: "Incorrect PIN" });
        } else if (step === "send_otp" && json.otp !== DOUBLE_OTP) {
          // Paystack keeps the charge at send_otp for the customer to type the OTP again, up to the issuer's
          // limit; then the charge fails.
          c.wrongOtps = (c.wrongOtps ?? 0) + 1;
          if (c.wrongOtps >= DOUBLE_OTP_TRIES) void finish(c, { failed: "Token Validation Failed" });
          else c.displayText = WRONG_OTP_TEXT;
        } else begin(c);
        return ok(res, matched, transaction(c));
      }
      case "get /charge/{reference}":
      case "get /transaction/verify/{reference}": {
        const c = mine(matched.params.reference as string);
        if (!c) {
          const what = matched.template.startsWith("/charge")
            ? "Charge not found"
            : "Transaction reference not found";
          return refuse(res, matched, 404, what);
        }
        c.checks++;
        if (c.status === "pending" && c.checks >= c.pendingChecks) void finish(c, "success")?.catch(() => {});
        if (matched.template.startsWith("/transaction")) {
          // Verify speaks of transactions: a charge waiting for the customer is still ongoing.
          const data = transaction(c);
          const status = ["success", "failed", "abandoned", "reversed"].includes(c.status)
            ? c.status
            : "ongoing";
          return ok(res, matched, { ...data, status }, "Verification successful");
        }
        return ok(res, matched, transaction(c), "Reference check successful");
      }
      case "get /transaction/{id}": {
        const c = [...charges.values()].find((x) => String(x.id) === matched.params.id && x.key === key);
        if (!c) return refuse(res, matched, 404, "Transaction not found");
        // Fetch Transaction types these as objects where Verify has null.
        return ok(
          res,
          matched,
          {
            ...transaction(c),
            plan: {},
            source: { type: "api", source: "merchant_api", entry_point: "charge", identifier: null },
          },
          "Transaction retrieved",
        );
      }
      case "post /refund": {
        const c = mine(String(json.transaction));
        if (!c) return refuse(res, matched, 400, "Transaction not found");
        if (c.status !== "success") return refuse(res, matched, 400, "Transaction has not been completed");
        const refunded = refunds
          .filter((r) => r.chargeReference === c.reference && r.status !== "failed")
          .reduce((sum, r) => sum + r.amount, 0);
        const amount = typeof json.amount === "number" ? json.amount : c.amount - refunded;
        if (amount <= 0 || refunded + amount > c.amount) {
          return refuse(res, matched, 400, "Refund amount cannot be more than the transaction amount");
        }
        const refund: Refund = {
          id: nextId++,
          chargeReference: c.reference,
          chargeId: c.id,
          key,
          domain: c.domain,
          amount,
          currency: c.currency,
          status: "pending",
          merchantNote: typeof json.merchant_note === "string" ? json.merchant_note : "",
          createdAt: Date.now(),
        };
        refunds.push(refund);
        return ok(
          res,
          matched,
          {
            transaction: {
              id: c.id,
              domain: c.domain,
              reference: c.reference,
              amount: c.amount,
              paid_at: iso(c.paidAt ?? c.createdAt),
              channel: c.channel,
              currency: c.currency,
              authorization: { exp_month: null, exp_year: null, account_name: null },
              customer: { international_format_phone: null },
              plan: {},
              subaccount: { currency: null },
              split: {},
              order_id: null,
              paidAt: iso(c.paidAt ?? c.createdAt),
              pos_transaction_data: null,
              source: null,
              fees_breakdown: null,
            },
            integration: 100_001,
            deducted_amount: 0,
            channel: null,
            merchant_note: refund.merchantNote,
            customer_note: "Refund",
            status: "pending",
            refunded_by: "merchant@example.com",
            expected_at: iso(Date.now() + 86_400_000),
            currency: refund.currency,
            domain: refund.domain,
            amount: refund.amount,
            fully_deducted: false,
            id: refund.id,
            createdAt: iso(refund.createdAt),
            updatedAt: iso(refund.createdAt),
          },
          "Refund has been queued for processing",
        );
      }
      case "get /refund/{id}": {
        const r = refunds.find((x) => String(x.id) === matched.params.id && x.key === key);
        if (!r) return refuse(res, matched, 404, "Refund not found");
        return ok(res, matched, refundData(r), "Refund retrieved");
      }
      case "get /refund": {
        const from = query.get("from") ? Date.parse(query.get("from") as string) : 0;
        const perPage = Number(query.get("perPage") ?? 50);
        const page = Number(query.get("page") ?? 1);
        const mineAll = refunds.filter((r) => r.key === key && r.createdAt >= from).reverse();
        const slice = mineAll.slice((page - 1) * perPage, page * perPage);
        return send(res, matched, 200, {
          status: true,
          message: "Refunds retrieved",
          data: slice.map(refundData),
          meta: {
            total: mineAll.length,
            skipped: (page - 1) * perPage,
            perPage: String(perPage),
            page,
            pageCount: Math.max(1, Math.ceil(mineAll.length / perPage)),
            failedRefundCount: 0,
          },
        });
      }
      default:
        violations.push(`${method} ${path}: the double does not play this operation (${matched.template})`);
        return refuse(res, matched, 400, "double: not played");
    }
  }

  function createCharge(
    res: ServerResponse,
    matched: Matched,
    key: string,
    json: Record<string, unknown>,
    req: IncomingMessage,
  ) {
    const reference = String(json.reference ?? `ref${nextId}`);
    if (charges.has(reference)) {
      return send(res, matched, 400, {
        status: false,
        message: "Duplicate Transaction Reference",
        meta: { nextStep: "Try and create the Transaction or Charge with a new reference" },
        type: "validation_error",
        code: "duplicate_reference",
      });
    }
    const c: Charge = {
      id: nextId++,
      reference,
      key,
      domain: domainOf(key),
      amount: Number(json.amount),
      currency: "NGN",
      email: String(json.email),
      channel: "card",
      status: "pending",
      steps: [],
      outcome: "success",
      message: null,
      createdAt: Date.now(),
      paidAt: null,
      checks: 0,
      pendingChecks: 1,
    };
    const card = json.card as { number: string; expiry_month: string; expiry_year: string } | undefined;
    if (card) {
      c.card = {
        last4: card.number.slice(-4),
        bin: card.number.slice(0, 6),
        expMonth: card.expiry_month,
        expYear: card.expiry_year,
        brand: brandOf(card.number),
      };
      c.saved = savedScenario(card.number);
      const scenario = cardScenario(card.number, {
        lost: options.lostAnswerMs ?? 3_000,
        held: options.heldAnswerMs ?? 60_000,
      });
      if (scenario.kind === "server_error") {
        return send(res, matched, 500, { status: false, message: "An error occurred" });
      }
      charges.set(reference, c);
      if (scenario.kind === "flow") {
        c.steps = [...scenario.steps];
        c.outcome = scenario.outcome;
        begin(c);
        return ok(res, matched, transaction(c));
      }
      if (scenario.kind === "pending") {
        c.displayText = "Processing";
        return ok(res, matched, transaction(c));
      }
      // The charge succeeds at Paystack; its answer is lost (held past the caller's patience, or cut).
      void finish(c, "success")?.catch(() => {});
      if (scenario.kind === "dropped") {
        req.socket.destroy();
        return;
      }
      const timer = setTimeout(() => {
        timers.delete(timer);
        if (!res.writableEnded && !req.socket.destroyed) ok(res, matched, transaction(c));
      }, scenario.holdMs);
      timers.add(timer);
      return;
    }
    charges.set(reference, c);
    const bank = json.bank as { code: string; account_number: string } | undefined;
    if (bank) {
      c.channel = "bank";
      c.bankName = `Bank ${bank.code}`;
      const plan = bankSteps(bank.account_number);
      if (plan.failed) {
        void finish(c, { failed: plan.failed });
      } else if (plan.steps === "offline") {
        c.status = "pay_offline";
        c.displayText = OFFLINE_TEXT;
      } else {
        c.steps = [...plan.steps];
        begin(c);
      }
      return ok(res, matched, transaction(c));
    }
    const ussd = json.ussd as { type: string } | undefined;
    if (ussd) {
      c.channel = "ussd";
      c.status = "pay_offline";
      c.ussdCode = `*${ussd.type}*000*${String(c.id % 100_000).padStart(5, "0")}#`;
      c.displayText = `Please dial ${c.ussdCode} on your mobile phone to complete the transaction`;
      return ok(res, matched, transaction(c));
    }
    const transfer = json.bank_transfer as { account_expires_at: string } | undefined;
    if (transfer) {
      c.channel = "bank_transfer";
      c.status = "pending_bank_transfer";
      c.displayText = "Please make a transfer to the account specified";
      const asked = Date.parse(transfer.account_expires_at);
      const limit = Date.now() + (options.maxAccountTtlMs ?? 24 * 3_600_000);
      const number = pool?.length
        ? (pool[poolIndex++ % pool.length] as string)
        : `${randomInt(1, 10)}${String(randomInt(0, 1_000_000_000)).padStart(9, "0")}`;
      c.account = {
        number,
        name: "PAYSTACK-TEST-MANAGED",
        bank: "Test Bank",
        expiresAt: Math.min(asked, limit),
      };
      return ok(res, matched, transaction(c));
    }
    // A charge of a kind the double does not play (mobile money, EFT): refused like an unknown channel.
    charges.delete(reference);
    violations.push(`POST /charge: the double plays card, bank, ussd and bank_transfer charges only`);
    return refuse(res, matched, 400, "double: channel not played");
  }

  /**
   * POST /transaction/charge_authorization: a reusable authorization of this key's account charged again,
   * for the email of the customer it belongs to (Paystack refuses another), under a reference not seen before.
   * What it does next is its card's (catalogue.ts savedScenario): paid at once, declined, a one-time password
   * or the bank's page first (send_otp, open_url, answered as any charge's steps are), or pending at first.
   */
  function chargeAuthorization(
    res: ServerResponse,
    matched: Matched,
    key: string,
    json: Record<string, unknown>,
  ) {
    const code = String(json.authorization_code);
    const saved = authorizations.get(code);
    if (!saved || saved.key !== key) return refuse(res, matched, 400, "Invalid Authorization Code");
    if (String(json.email).toLowerCase() !== saved.email.toLowerCase())
      return refuse(res, matched, 400, "Email does not match Authorization code");
    const reference = String(json.reference ?? `ref${nextId}`);
    if (charges.has(reference)) {
      return send(res, matched, 400, {
        status: false,
        message: "Duplicate Transaction Reference",
      });
    }
    const c: Charge = {
      id: nextId++,
      reference,
      key,
      domain: domainOf(key),
      amount: Number(json.amount),
      currency: typeof json.currency === "string" ? json.currency : "NGN",
      email: saved.email,
      channel: "card",
      status: "pending",
      steps: [],
      outcome: "success",
      message: null,
      createdAt: Date.now(),
      paidAt: null,
      checks: 0,
      pendingChecks: 1,
      card: saved.card,
      authorizationCode: code,
      reusable: true,
      saved: saved.scenario,
    };
    charges.set(reference, c);
    if (saved.scenario === "pending") c.displayText = "Processing";
    else {
      if (saved.scenario === "declined") c.outcome = { failed: "Declined" };
      if (saved.scenario === "otp") c.steps = ["send_otp"];
      if (saved.scenario === "open_url") c.steps = ["open_url"];
      begin(c);
    }
    // This operation's answer types metadata as the stringified JSON it was sent as.
    const metadata = typeof json.metadata === "string" ? json.metadata : "";
    return ok(res, matched, { ...transaction(c), metadata }, "Charge attempted");
  }

  function page(res: ServerResponse, status: number, html: string) {
    res.writeHead(status, { "content-type": "text/html; charset=utf-8" });
    res.end(
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><link rel="icon" href="data:,"><title>Test Bank</title></head><body>${html}</body></html>`,
    );
  }

  async function control(req: IncomingMessage, res: ServerResponse, path: string, body: string) {
    const reply = (status: number, data: unknown) => {
      res.writeHead(status, { "content-type": "application/json" });
      res.end(JSON.stringify(data));
    };
    const json = (() => {
      try {
        return body ? (JSON.parse(body) as Record<string, unknown>) : {};
      } catch {
        return Object.fromEntries(new URLSearchParams(body));
      }
    })();
    let m = /^\/__double\/3ds\/([^/]+)$/.exec(path);
    if (m) {
      const reference = decodeURIComponent(m[1] as string);
      const c = charges.get(reference);
      if (!c) return page(res, 404, "<h1>Unknown payment</h1>");
      if (req.method === "GET") {
        return page(
          res,
          200,
          `<main><h1>Test Bank: confirm your payment</h1><p>NGN ${(c.amount / 100).toFixed(2)} to a merchant.</p>
<form method="post"><input type="hidden" name="outcome" value="success"><button type="submit">Authenticate</button></form>
<form method="post"><input type="hidden" name="outcome" value="failed"><button type="submit">Cancel payment</button></form></main>`,
        );
      }
      if (c.status === "open_url")
        await (complete(reference, json.outcome === "failed" ? "failed" : "success") ?? null);
      if (options.callbackUrl) {
        const back = `${options.callbackUrl}?trxref=${encodeURIComponent(reference)}&reference=${encodeURIComponent(reference)}`;
        res.writeHead(303, { location: back });
        return res.end();
      }
      return page(res, 200, "<main><h1>Done</h1><p>You can close this window.</p></main>");
    }
    if (path === "/__double/keys" && req.method === "POST") {
      api_addKey(String(json.secretKey), typeof json.webhookUrl === "string" ? json.webhookUrl : undefined);
      return reply(200, { ok: true });
    }
    if (path === "/__double/violations") return reply(200, { violations });
    if (path === "/__double/charges") return reply(200, { charges: [...charges.values()] });
    m = /^\/__double\/charges\/([^/]+)\/(complete|transfer)$/.exec(path);
    if (m && req.method === "POST") {
      const reference = decodeURIComponent(m[1] as string);
      if (!charges.has(reference)) return reply(404, { error: "no such charge" });
      const delivery =
        m[2] === "complete"
          ? await complete(reference, json.outcome === "failed" ? "failed" : "success")
          : await transferTo(reference, Number(json.amount));
      return reply(200, { delivery });
    }
    m = /^\/__double\/refunds\/(\d+)\/settle$/.exec(path);
    if (m && req.method === "POST") {
      return reply(200, {
        delivery: await settle(Number(m[1]), json.status === "failed" ? "failed" : "processed"),
      });
    }
    return reply(404, { error: "no such control route" });
  }

  function api_addKey(secretKey: string, webhookUrl?: string) {
    keys.set(secretKey, { webhookUrl });
  }

  async function complete(reference: string, outcome: "success" | "failed"): Promise<Delivery | null> {
    const c = charges.get(reference);
    if (!c) throw new Error(`no charge ${reference}`);
    if (
      ![
        "pay_offline",
        "open_url",
        "pending",
        "send_otp",
        "send_pin",
        "send_birthday",
        "send_phone",
        "send_address",
      ].includes(c.status)
    )
      throw new Error(`charge ${reference} is ${c.status}: nothing to complete`);
    c.url = undefined;
    return finish(c, outcome === "success" ? "success" : { failed: "Declined by the customer" });
  }

  async function transferTo(reference: string, amount: number, at = Date.now()): Promise<Delivery> {
    const c = charges.get(reference);
    if (!c?.account) throw new Error(`no temporary account for ${reference}`);
    const reject = (message: string, type: string) =>
      event(c, "bank.transfer.rejected", {
        bank_transfer: { amount: String(amount), message, message_type: type, transaction_id: String(c.id) },
        customer: { email: c.email, domain: c.domain },
      });
    if (c.status !== "pending_bank_transfer") return reject("duplicate transfer", "DUPLICATE");
    if (at > c.account.expiresAt) return reject("account expired", "LATE_PAYMENT");
    if (amount !== c.amount) return reject("incorrect amount sent", "INCORRECT_AMOUNT");
    return finish(c, "success") as Promise<Delivery>;
  }

  async function settle(id: number, status: "processed" | "failed"): Promise<Delivery> {
    const r = refunds.find((x) => x.id === id);
    if (!r) throw new Error(`no refund ${id}`);
    r.status = status;
    return deliver({
      body: JSON.stringify({
        event: `refund.${status}`,
        data: {
          status,
          transaction_reference: r.chargeReference,
          refund_reference: status === "processed" ? `RFD_${r.id}` : null,
          amount: String(r.amount),
          currency: r.currency,
          processor: "double",
          customer: { first_name: null, last_name: null, email: "customer@example.com" },
          integration: 100_001,
          domain: r.domain,
        },
      }),
      signWith: r.key,
    });
  }

  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const parsed = new URL(req.url ?? "/", "http://double");
      const body = Buffer.concat(chunks).toString("utf8");
      if (parsed.pathname === "/favicon.ico") {
        // A browser on the bank's page, not the connector: nothing of the API.
        res.writeHead(404);
        res.end();
        return;
      }
      const run = parsed.pathname.startsWith("/__double/")
        ? control(req, res, parsed.pathname, body)
        : api(req, res, parsed.pathname, parsed.searchParams, body);
      run
        .then(() => {
          if (!parsed.pathname.startsWith("/__double/"))
            requests.push({ method: req.method ?? "GET", path: parsed.pathname, status: res.statusCode });
        })
        .catch((err: unknown) => {
          violations.push(`the double failed on ${req.method} ${parsed.pathname}: ${String(err)}`);
          if (!res.headersSent) {
            res.writeHead(500, { "content-type": "application/json" });
            res.end(JSON.stringify({ status: false, message: String(err) }));
          }
        });
    });
  });
  await new Promise<void>((resolve) =>
    server.listen(options.port ?? 0, options.host ?? "127.0.0.1", resolve),
  );
  url = `http://${options.host ?? "127.0.0.1"}:${(server.address() as AddressInfo).port}`;

  return {
    url,
    addKey: api_addKey,
    violations: () => [...violations],
    assertClean() {
      const found = violations.splice(0);
      if (found.length > 0)
        throw new Error(`The Paystack double saw what the document does not allow:\n${found.join("\n")}`);
    },
    requests: () => [...requests],
    charge: (reference) => charges.get(reference),
    charges: () => [...charges.values()],
    refunds: () => [...refunds],
    complete,
    transfer: transferTo,
    settleRefund: settle,
    sendEvent: deliver,
    lastEvent: () => deliveries.at(-1),
    setOutage(status) {
      outage = status;
    },
    setAccountPool(numbers) {
      pool = numbers;
      poolIndex = 0;
    },
    muteWebhooks(value) {
      muted = value;
    },
    async close() {
      for (const t of timers) clearTimeout(t);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
