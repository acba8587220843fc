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
}>;
export declare const TEST_OTP: string;
/** Sandbox account numbers with a fixed behaviour: `unknown` is nobody's (outcome unknown_account). */
export declare const TEST_ACCOUNTS: Readonly<{ unknown: string }>;

/** The default budget of waiting for the service per test, in ms (PAYGATE_WAIT_BUDGET_MS, else 2000). */
export declare const WAIT_BUDGET_MS: number;
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
  }>;
  close(): Promise<void>;
};
/** An HTTP server answering each delivery with the next of `replies` (the last repeats). */
export declare function startWebhookReceiver(options?: { replies?: number[] }): Promise<WebhookReceiver>;

/** `data` of POST /v1/payment/initialize. */
export type Session = {
  reference: string;
  accessCode: string;
  checkoutUrl: string;
  amount: string;
  currency: string;
  cardTotal: string;
  transferTotal: string;
  channels: string[];
  [field: string]: unknown;
};

/** `data` of GET /v1/payment/verify/{reference}. */
export type Verified = {
  reference: string;
  status:
    | "pending"
    | "awaiting_transfer"
    | "awaiting_bank_authorization"
    | "success"
    | "failed"
    | "abandoned"
    | string;
  amount: string;
  currency: string;
  channel: string | null;
  paidAt: string | null;
  [field: string]: unknown;
};

export type TransferAccount = {
  accountNumber: string;
  amount: string;
  expiresAt: string;
  expiresInSeconds: number;
};

export type Refund = {
  id: string;
  reference: string | null;
  amount: string;
  currency: string;
  status: "pending" | "processed" | "failed";
  reason: string | null;
  type: "merchant" | "automatic";
  failureReason: string | null;
  createdAt: string;
  processedAt: string | null;
};

export type PaygateEvent = {
  id: string;
  type: string;
  reference: string | null;
  createdAt: string;
  delivered: boolean;
  deliveredAt: string | null;
  payload: { event: string; data: Record<string, unknown>; timestamp: string };
  attempts: Array<Record<string, unknown>>;
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
  waitForEvent(type: string, reference: string, options?: { timeout?: number }): Promise<PaygateEvent>;
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
  payByCard(number?: string, options?: { expiry?: string; cvv?: string }): Promise<void>;
  enterOtp(otp?: string): Promise<void>;
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
    PlaywrightTestOptions & { checkout: Checkout; waitBudgetMs: number; waitBudget: undefined },
  PlaywrightWorkerArgs & PlaywrightWorkerOptions & { paygate: Paygate }
>;
