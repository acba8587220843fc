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
  }>;
  authorize(reference: string, decision: "approve" | "decline"): Promise<Verified>;
  refund(input: { reference: string; amount?: string; reason?: string }): Promise<Refund>;
  settleRefund(id: string, outcome?: "processed" | "failed"): Promise<Refund>;
  refunds(reference: string): Promise<Refund[]>;
  checkoutStatus(
    session: Session,
  ): Promise<{ status: string; transfer?: TransferAccount; [field: string]: unknown }>;
  events(filter?: { type?: string; reference?: string; limit?: number }): Promise<PaygateEvent[]>;
  waitForEvent(type: string, reference: string, options?: { timeout?: number }): Promise<PaygateEvent>;
}

export declare class Checkout {
  readonly page: Page;
  readonly paygate: Paygate;
  constructor(page: Page, paygate: Paygate);
  open(session: Session): Promise<void>;
  choose(method: "Card" | "Bank transfer" | "Bank payment" | "USSD"): Promise<ReturnType<Page["getByRole"]>>;
  payByCard(number?: string, options?: { expiry?: string; cvv?: string }): Promise<void>;
  enterOtp(otp?: string): Promise<void>;
  getTransferAccount(): Promise<TransferAccount>;
  payByTransfer(options?: { amount?: string }): Promise<TransferAccount>;
  failTransfer(): Promise<void>;
  approveInBankApp(options?: { bank?: string; decision?: "approve" | "decline" }): Promise<void>;
  payByUssd(options?: { bank?: string; phone?: string; decision?: "approve" | "decline" }): Promise<void>;
  cancel(): Promise<void>;
  expectResult(status: "success" | "failed" | "abandoned"): Promise<void>;
  expectReturn(
    callbackUrl: string,
    status: "success" | "failed" | "abandoned",
  ): Promise<Record<string, string>>;
}

export declare const test: TestType<
  PlaywrightTestArgs & PlaywrightTestOptions & { checkout: Checkout },
  PlaywrightWorkerArgs & PlaywrightWorkerOptions & { paygate: Paygate }
>;
