/**
 * The outside world, one interface per channel. Channels (lib/channels) talk to rails only through these;
 * test mode uses the sandbox rails (lib/rails/sandbox.ts), live mode the rails a deployment configures.
 * Inbound transfers come the other way: a rail reports them to `receiveInboundTransfer`
 * (lib/channels/receive-inbound-transfer.ts), which `/v1/sandbox/transfers` also calls in test mode.
 */
export type CardDetails = { number: string; expiryMonth: number; expiryYear: number; cvv: string };

export type CardOutcome =
  | { kind: "success"; authorization: string }
  | { kind: "failed"; reason: string; message: string }
  | { kind: "otp_required"; authorization: string; message: string };

export interface TransferRail {
  readonly name: string;
  /** A one-time account number (NUBAN) at the rail's bank for one payment. */
  issueVirtualAccount(input: { reference: string; accountName: string }): Promise<{
    accountNumber: string;
    bankName: string;
    accountName: string;
  }>;
}

/** What the network says about an attempt asked about again; `unknown` = it never received it. */
export type CardStatus = CardOutcome | { kind: "unknown" };

export interface CardRail {
  /**
   * Authorise and capture `amountMinor`; the card data is used for this call only and never kept.
   * `attemptId` is the service's own id for this try: the network keeps it, so `cardStatus` can ask later.
   */
  authorize(input: {
    attemptId: string;
    card: CardDetails;
    amountMinor: bigint;
    currency: string;
    reference: string;
  }): Promise<CardOutcome>;
  /** Finish an authorisation that asked for a one-time password. */
  confirmOtp(input: { attemptId: string; authorization: string; otp: string }): Promise<CardOutcome>;
  /**
   * What became of an attempt whose answer the service never received (its process died while the network
   * held it): the last outcome the network decided for `attemptId`.
   */
  cardStatus(input: { attemptId: string; reference: string }): Promise<CardStatus>;
}

export type RefundStatus =
  | { status: "pending" }
  | { status: "processed" }
  | { status: "failed"; reason: string };

/** Returns money to a payer: to the card charged, or to the account a transfer came from. */
export interface RefundRail {
  /**
   * Ask the rail to return `amountMinor`; it answers at once with its own reference and settles later.
   * `refundId` is the rail's idempotency key: asking again for the same `refundId` (after a process died
   * between asking and recording the answer) must return the same refund, never send the money twice.
   */
  refund(input: {
    refundId: string;
    amountMinor: bigint;
    currency: string;
    /** The transaction's reference, null for money sent to an account no transaction owns. */
    reference: string | null;
  }): Promise<{ railReference: string }>;
  /** Where a refund asked for earlier stands. */
  refundStatus(input: { refundId: string; railReference: string }): Promise<RefundStatus>;
}

export interface BankPaymentRail {
  /** Ask the customer's bank to push an approval request to its app. */
  requestAuthorization(input: {
    reference: string;
    bankCode: string;
    amountMinor: bigint;
  }): Promise<{ requestId: string }>;
}

export interface UssdRail {
  /** A code the customer dials on the phone registered with their bank. */
  createCode(input: {
    reference: string;
    bankCode: string;
    ussdShortCode: string;
    phoneNumber: string;
  }): Promise<{
    ussdCode: string;
  }>;
}

export type Rails = {
  transfer: TransferRail;
  card: CardRail;
  bankPayment: BankPaymentRail;
  ussd: UssdRail;
  refunds: RefundRail;
};
