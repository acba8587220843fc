import type {
  APIRequestContext,
  Page,
  PlaywrightTestArgs,
  PlaywrightTestOptions,
  PlaywrightWorkerArgs,
  PlaywrightWorkerOptions,
  TestType,
} from "@playwright/test";

export { expect } from "@playwright/test";

export declare const TEST_CARDS: Readonly<{
  success: string;
  declined: string;
  insufficientFunds: string;
  otp: string;
  /** A second card (Mastercard) that succeeds. */
  secondCard: string;
  /** Pays and is saved; every later charge of its authorization is declined. */
  savesThenDeclines: string;
  /** Pays and is saved; every later charge of its authorization asks for the OTP. */
  savesThenOtp: string;
  /** 3-D Secure: confirmed or declined on the sandbox bank's page (checkout.confirmOnBankPage). */
  threeDSecure: string;
}>;
export declare const TEST_OTP: string;
/** Sandbox account numbers with a fixed behaviour: `unknown` is nobody's (outcome unknown_account). */
export declare const TEST_ACCOUNTS: Readonly<{ unknown: string }>;

/** The budget of waiting for the service per test that each test reports against, in ms (PAYGATE_WAIT_BUDGET_MS, else 2000). */
export declare const WAIT_BUDGET_MS: number;
/** A test's `waited` annotation: its total against `budgetMs`, whether that fails it (`enforced`), each wait. */
export declare function waitReport(
  totalMs: number,
  budgetMs: number,
  enforced: boolean,
  log: string[],
): string;
/** Run `wait`, counting its time against the current test's budget of waiting for the service. */
export declare function timed<T>(
  what: string,
  wait: () => Promise<T>,
  options?: { notCountedMs?: number },
): Promise<T>;
/** How often the hosted page polls while something is in flight (1.5 s). */
export declare const PAGE_POLL_MS: number;
/** The current test's time spent waiting for the service so far, and one line per wait. */
export declare function waited(): { totalMs: number; log: string[] };

/** A webhook endpoint started by a test (startWebhookReceiver). */
export type WebhookReceiver = {
  url: string;
  requests: Array<{
    headers: Record<string, string | string[] | undefined>;
    body: string;
    json: unknown;
    answered: number;
    /** With verifyWith: whether the delivery is signed by that secret (undefined before it). */
    verified: boolean | undefined;
  }>;
  /** Check each delivery's signature from now on (400 to a forged one); throws for a secret under 16 bytes. */
  verifyWith(secret: string | undefined): void;
  close(): Promise<void>;
};
/** The key of a whsec_ secret; throws, naming PAYGATE_WEBHOOK_SECRET, for one anyone could sign under. */
export declare function webhookKey(secret: string | undefined): Buffer;
/** An HTTP server answering each delivery with the next of `replies` (the last repeats). */
export declare function startWebhookReceiver(options?: { replies?: number[] }): Promise<WebhookReceiver>;

/**
 * The API's answers, as its OpenAPI document describes them: `./api-types.js` is generated from the document
 * when the kit is built (@hey-api/openapi-ts, the same types as the server SDK @paygate/node), never written
 * by hand.
 */
import type * as Api from "./api-types.js";

/** `data` of POST /v1/payment/initialize. */
export type Session = Api.TransactionSession;

/** `data` of GET /v1/payment/verify/{reference}. */
export type Verified = Api.VerifiedTransaction;

/** `data` of POST /v1/payment/checkout/charge/bank-transfer. */
export type TransferAccount = Api.VirtualAccount;

export type Refund = Api.Refund;

/** A customer (GET /v1/customers/{code}) and a saved card of theirs. */
export type Customer = Api.Customer;
export type Authorization = Api.Authorization;

/** `data` of POST /v1/payment/charge-authorization. */
export type AuthorizationCharge = Api.AuthorizationCharge;

/** What the `saveCard` fixture answers: the saved card, its customer, the payment that saved it. */
export type SavedCard = { authorizationCode: string; customerCode: string; reference: string };

/** An event with its delivery attempts (GET /v1/events); `payload` is the webhook body, typed by `event`. */
export type PaygateEvent<T extends Api.EventType = Api.EventType> = Omit<Api.Event, "payload" | "type"> & {
  type: T;
  payload: Extract<Api.Webhooks["body"], { event: T }>;
};

export declare class PaygateError extends Error {
  readonly status: number;
  readonly code: string;
}

export declare class Paygate {
  constructor(request: APIRequestContext, options: { secretKey: string });
  call<T = unknown>(
    method: string,
    path: string,
    init?: { body?: unknown; headers?: Record<string, string> },
  ): Promise<T>;
  initialize(payment?: Record<string, unknown>): Promise<Session>;
  verify(reference: string): Promise<Verified>;
  advanceClock(reference: string, seconds: number): Promise<Verified>;
  /** A saved card's clock moves forward (a card whose expiry passes is `expired`). */
  advanceCardClock(authorizationCode: string, seconds: number): Promise<Authorization>;
  /** Charge a saved card with the customer away (amount 2500.00 unless given). */
  chargeAuthorization(
    authorizationCode: string,
    charge?: { amount?: string; currency?: string; reference?: string; description?: string },
  ): Promise<AuthorizationCharge>;
  customer(code: string): Promise<Customer>;
  customerByEmail(email: string): Promise<Customer | undefined>;
  deactivateCard(authorizationCode: string): Promise<Authorization>;
  transfer(input: { accountNumber: string; amount: string; sessionId?: string }): Promise<{
    outcome: "credited" | "amount_mismatch" | "duplicate_payment" | "late_payment" | "unknown_account";
    reference: string | null;
    sessionId: string;
    replayed: boolean;
    /** On a first report to a known account: this transfer and what the account expects. */
    amount?: string;
    expected?: string;
    /** `amount_mismatch`: what is still due on the account (transfers to it add up). */
    due?: string;
    /** `credited` with more than was due: the excess, refunded automatically. */
    refunded?: string;
  }>;
  authorize(reference: string, decision: "approve" | "decline"): Promise<Verified>;
  refund(input: { reference: string; amount?: string; reason?: string }): Promise<Refund>;
  settleRefund(id: string, outcome?: "processed" | "failed"): Promise<Refund>;
  refunds(reference?: string): Promise<Refund[]>;
  checkoutStatus(
    session: Session,
  ): Promise<{ status: string; transfer?: TransferAccount; [field: string]: unknown }>;
  events(filter?: { type?: string; reference?: string; limit?: number }): Promise<PaygateEvent[]>;
  /** Polls GET /v1/events until the event exists; `timeout` 2 s by default. */
  waitForEvent<T extends Api.EventType>(
    type: T,
    reference: string,
    options?: { timeout?: number },
  ): Promise<PaygateEvent<T>>;
  /** Polls GET /v1/events until the event is delivered to the webhook endpoint; `timeout` 2 s by default. */
  waitForDelivery(type: string, reference: string, options?: { timeout?: number }): Promise<PaygateEvent>;
  /** A new merchant (POST /v1/merchants/auth/signup): a Paygate with its test key, and its session token. */
  signUp(input?: { businessName?: string; email?: string; password?: string }): Promise<{
    paygate: Paygate;
    accessToken: string;
    merchant: { id: string; businessName: string; email: string };
  }>;
  /** PUT /v1/merchants/webhook for test mode, with the session token of signUp. */
  setWebhook(accessToken: string, url: string): Promise<{ mode: string; url: string; secret: string }>;
}

export declare class Checkout {
  readonly page: Page;
  readonly paygate: Paygate;
  constructor(page: Page, paygate: Paygate);
  /** Open a session's checkoutUrl; answers once the page has loaded (the browser's load event). */
  open(session: Session): Promise<void>;
  /** Wait until `locator` is visible, counting the time against the test's budget of waiting. */
  expectVisible(
    locator: ReturnType<Page["getByRole"]>,
    options?: { timeout?: number; poll?: boolean },
  ): Promise<void>;
  choose(method: "Card" | "Bank transfer" | "Bank payment" | "USSD"): Promise<ReturnType<Page["getByRole"]>>;
  payByCard(number?: string, options?: { expiry?: string; cvv?: string; saveCard?: boolean }): Promise<void>;
  /** Finish a saved card's charge that answered requires_action, on its checkoutUrl, with the OTP. */
  finishSavedCardCharge(charge: AuthorizationCharge, otp?: string): Promise<void>;
  enterOtp(otp?: string): Promise<void>;
  /** TEST_CARDS.threeDSecure: continue to the sandbox bank's page and approve (default) or decline there. */
  confirmOnBankPage(decision?: "approve" | "decline"): Promise<void>;
  getTransferAccount(): Promise<TransferAccount>;
  payByTransfer(options?: { amount?: string }): Promise<TransferAccount>;
  failTransfer(): Promise<void>;
  approveInBankApp(options?: { bank?: string; decision?: "approve" | "decline" }): Promise<void>;
  payByUssd(options?: { bank?: string; phone?: string; decision?: "approve" | "decline" }): Promise<void>;
  cancel(): Promise<void>;
  expectResult(status: "success" | "failed" | "abandoned", options?: { poll?: boolean }): Promise<void>;
  expectReturn(
    callbackUrl: string,
    status: "success" | "failed" | "abandoned",
  ): Promise<Record<string, string>>;
}

export declare const test: TestType<
  PlaywrightTestArgs &
    PlaywrightTestOptions & {
      checkout: Checkout;
      /** Save a card as a customer would (a saveCard payment paid with the box ticked). */
      saveCard: (number?: string, options?: { email?: string; expiry?: string }) => Promise<SavedCard>;
      waitBudgetMs: number | undefined;
      waitBudget: undefined;
    },
  PlaywrightWorkerArgs & PlaywrightWorkerOptions & { paygate: Paygate }
>;
