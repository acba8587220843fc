/**
 * The outside world, one interface per channel. Channels (lib/channels) talk to rails only through these;
 * test mode uses the sandbox rails (lib/rails/sandbox.ts) unless a Paystack test key is configured, live mode
 * the Paystack connector (lib/rails/paystack/) with the merchant's own key or the deployment's
 * (lib/rails/rails-for.ts). How to add a processor: docs/rails.md.
 * Inbound transfers come the other way: a rail reports them to `receiveInboundTransfer`
 * (lib/channels/receive-inbound-transfer.ts), which `/v1/sandbox/transfers` also calls in test mode.
 */
export type CardDetails = { number: string; expiryMonth: number; expiryYear: number; cvv: string };

/**
 * What the customer must give next before the network decides a charge: a card's PIN, a one-time password,
 * a phone number, a birthday, a billing address, or a page of the issuer's to open (3-D Secure, a bank's
 * internet banking) from which the customer comes back.
 */
export type ChargeStep = "pin" | "otp" | "phone" | "birthday" | "address" | "redirect";

/** The answer of a step, as the customer gave it (validated by lib/channels/schemas.ts). */
export type StepAnswer =
  | { step: "pin"; pin: string }
  | { step: "otp"; otp: string }
  | { step: "phone"; phone: string }
  | { step: "birthday"; birthday: string }
  | { step: "address"; address: string; city: string; state: string; zipCode: string };

/**
 * What a card's network gave, on a successful charge, to charge the same card again with the customer away
 * (Paystack's reusable `authorization`, the sandbox's token). Absent where the network gives none (Paystack
 * marks some cards not reusable): such a card cannot be saved.
 */
export type ReusableCard = {
  /** The network's own handle of the card: kept sealed on the server, never shown to anyone. */
  token: string;
  /** The issuing bank's name, where the network names it. */
  bank: string | null;
};

export type CardOutcome =
  | { kind: "success"; authorization: string; reusable?: ReusableCard }
  | { kind: "failed"; reason: string; message: string }
  /** The network needs `step` from the customer; `url` for "redirect". */
  | { kind: "action_required"; step: ChargeStep; authorization: string; message: string; url?: string }
  /** The network took the charge and has not decided yet (ask again with `cardStatus`, or wait for its webhook). */
  | { kind: "pending"; authorization: string; message: string };

/** The rails a deployment can have: the sandbox of test mode, and the processors behind lib/rails/<name>/. */
export type RailName = "sandbox" | "paystack";

/** Whose credentials a processor call uses: the merchant's own connection, or the deployment's default key. */
export type KeySource = "merchant" | "deployment";

export interface TransferRail {
  /** A one-time account number for one payment of `amountMinor`, open until `expiresAt` at the latest. */
  issueVirtualAccount(input: {
    reference: string;
    attemptId: string;
    accountName: string;
    amountMinor: bigint;
    currency: string;
    email: string;
    /** The end of the service's window; a rail may close its account earlier (and says so). */
    expiresAt: number;
  }): Promise<{
    accountNumber: string;
    bankName: string;
    accountName: string;
    /** When the rail closes the account, if it decides that itself (unix ms). */
    expiresAt?: number;
  }>;
}

/** What the network says about an attempt asked about again; `unknown` = it never received it. */
export type CardStatus = CardOutcome | { kind: "unknown" };

export interface CardRail {
  /**
   * Authorise and capture `amountMinor`; the card data is used for this call only and never kept.
   * `attemptId` is the service's own id for this try: the network keeps it (or a reference derived from it),
   * so `cardStatus` can ask later and a retry of the same attempt can never charge twice.
   */
  authorize(input: {
    attemptId: string;
    card: CardDetails;
    amountMinor: bigint;
    currency: string;
    reference: string;
    email: string | null;
    /** The customer agreed to keep the card: a network that gives reusable cards only when asked is asked. */
    saveCard?: boolean;
  }): Promise<CardOutcome>;
  /**
   * Charge a card saved earlier (its `ReusableCard.token`) with the customer away: the same outcomes as
   * `authorize` (the bank may still ask the customer for a step: an OTP, its 3-D Secure page), and the same
   * rules: `attemptId` is this try's own, so `cardStatus` finds it and a retry never charges twice.
   */
  chargeAuthorization(input: {
    attemptId: string;
    token: string;
    amountMinor: bigint;
    currency: string;
    reference: string;
    email: string;
  }): Promise<CardOutcome>;
  /** Answer the step an authorisation asked for (`authorization` is what the outcome carried). */
  submitStep(input: { attemptId: string; authorization: string; answer: StepAnswer }): Promise<CardOutcome>;
  /**
   * What became of an attempt whose answer the service never received (its process died while the network
   * held it), or that waits on the network (pending, 3-D Secure): the last outcome the network decided.
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
    /** The rail's own reference of the charge whose money goes back (processors need it; the sandbox not). */
    chargeReference: string | null;
    /** When the refund was asked for (unix ms): a rail looking for an earlier ask of it starts there. */
    createdAt: number;
  }): Promise<{ railReference: string }>;
  /** Where a refund asked for earlier stands. */
  refundStatus(input: { refundId: string; railReference: string }): Promise<RefundStatus>;
}

/** What a bank asked for after a bank payment request. */
export type BankPaymentOutcome =
  /** Approve in the bank's app (or on the phone): the rail reports the answer later. */
  | { kind: "waiting"; message: string }
  | { kind: "action_required"; step: ChargeStep; message: string; url?: string }
  | { kind: "success" }
  | { kind: "failed"; reason: string; message: string };

export interface BankPaymentRail {
  /** Ask the customer's bank to take the payment: an approval in its app, or the steps it asks for. */
  requestAuthorization(input: {
    reference: string;
    attemptId: string;
    bankCode: string;
    /** The customer's account, for rails that debit an account (null where the bank app is enough). */
    accountNumber: string | null;
    amountMinor: bigint;
    currency: string;
    email: string | null;
  }): Promise<{ requestId: string; outcome: BankPaymentOutcome }>;
  /** Answer the step the bank asked for. */
  submitStep(input: {
    attemptId: string;
    requestId: string;
    answer: StepAnswer;
  }): Promise<BankPaymentOutcome>;
  /** Where the request stands at the rail (after the bank's page, or a lost answer). */
  paymentStatus(input: {
    attemptId: string;
    requestId: string;
  }): Promise<BankPaymentOutcome | { kind: "unknown" }>;
}

export interface UssdRail {
  /** A code the customer dials on the phone registered with their bank. */
  createCode(input: {
    reference: string;
    attemptId: string;
    bankCode: string;
    ussdShortCode: string;
    phoneNumber: string;
    amountMinor: bigint;
    currency: string;
    email: string | null;
  }): Promise<{
    ussdCode: string;
  }>;
}

export type Rails = {
  /** Recorded with every attempt that reaches a processor (rail_charges), so its next steps use the same rail. */
  name: RailName;
  /** Whose key a processor's rails use; null for the sandbox. */
  keySource: KeySource | null;
  /**
   * The reference the rail knows an attempt by, derived from the transaction's reference and the attempt
   * (the same inputs always give the same reference: a processor refuses a reference twice, so a retried
   * call can never charge twice). Null: the rail keeps no reference of its own (the sandbox).
   */
  chargeReference(input: { reference: string; attemptId: string }): string | null;
  /** Currencies the rail takes; a charge in another is refused before it reaches the rail. */
  currencies: readonly string[] | "any";
  /** Whether the rail needs the customer's email on every charge (processors identify customers by it). */
  needsEmail: boolean;
  /** Whether a bank payment needs the customer's account number (a debit) rather than an app approval. */
  bankNeedsAccount: boolean;
  transfer: TransferRail;
  card: CardRail;
  bankPayment: BankPaymentRail;
  ussd: UssdRail;
  refunds: RefundRail;
};
