/**
 * Shapes the hosted checkout page shares between its server component and its client components. Types only:
 * importing this file adds nothing to the browser bundle.
 */
import type { presentVirtualAccount } from "@/lib/channels/present-virtual-account";
import type { Channel } from "@/lib/payments/channel-list";
import type { TransactionStatus } from "@/lib/payments/status";

export type { Channel };

/** Transaction statuses (lib/payments/status.ts), as the page sees them on checkout verify. */
export type CheckoutStatus = TransactionStatus;

/** `data` of GET /v1/payment/checkout/verify (docs/api.md "Checkout verification record"). */
export type CheckoutRecord = {
  reference: string;
  amount: string;
  total: string | null;
  currency: string;
  status: CheckoutStatus;
  channel: string | null;
  fees: string | null;
  paidAt: string | null;
  /** Transfers to the account add up: `received` so far of `expected`, `due` still to send. */
  amountMismatch?: { expected: string; received: string; due: string };
  /** What a card or bank payment waits for from the customer, to show that step again after a reload. */
  action?: {
    channel: "card" | "bank_payment";
    step: "pin" | "otp" | "phone" | "birthday" | "address" | "redirect";
    message: string;
    url?: string;
  };
  /** While a transfer is awaited: the latest account's window, as the server's clock has it now. */
  transfer?: { accountNumber: string; amount: string; expiresAt: string; expiresInSeconds: number };
};

export type Bank = { code: string; name: string };

/** The virtual account as POST /payment/checkout/charge/bank-transfer answers it. */
export type VirtualAccountView = ReturnType<typeof presentVirtualAccount>;

/** The step a waiting transaction is on, as its charge endpoint answered it (lib/checkout/current-attempt.ts). */
export type CurrentAttempt =
  | { kind: "bank_transfer"; account: VirtualAccountView }
  | { kind: "ussd"; result: { ussdCode: string; dialUrl: string; bankCode: string; bankName: string } }
  | { kind: "bank_payment"; result: { bankCode: string; bankName: string } };

/** Everything the pay page renders, loaded server-side from the database by access code. */
export type CheckoutView = {
  accessCode: string;
  reference: string;
  merchant: { name: string; brandColor: string | null; logoUrl: string | null };
  email: string | null;
  customerName: string | null;
  description: string | null;
  amount: string;
  currency: string;
  channels: Channel[];
  /** What the customer pays on each channel: card has its own fee, the others share `transferFee`. */
  totals: { card: string; transfer: string };
  fees: { card: string; transfer: string };
  merchantBearsCost: boolean;
  /** Where the browser returns after checkout (docs/checkout.md); null → the page shows its own receipt. */
  callbackUrl: string | null;
  testMode: boolean;
  /**
   * The sandbox takes this payment (test mode without a Paystack test key): the page offers the test cards
   * and the sandbox's buttons. False when a payment processor takes it, in either mode.
   */
  sandbox: boolean;
  /** A bank payment debits the customer's account (Paystack): the page asks for the account number. */
  bankNeedsAccount: boolean;
  /** Banks with a USSD service in the transaction's country (the banks endpoint does not say which). */
  ussdBanks: Bank[];
  /**
   * The banks of GET /payment/checkout/banks for the transaction's country, for the bank payment form as the
   * server renders it (a plain list until the page's code replaces it with the searchable picker).
   */
  paymentBanks: Bank[];
  /** The step the transaction waits on, so the page shows it from its first paint (null when none). */
  attempt: CurrentAttempt | null;
  /**
   * How a finished payment was made, for the receipt: "Visa •••• 4242" (brand and last 4, all the card data
   * kept), "Access Bank" for a bank payment or USSD; null before success or when there is nothing to add.
   */
  paidWith: string | null;
  /** Whether this server emails receipts (SMTP configured): only then does the page say one is on its way. */
  receiptsByEmail: boolean;
  /** The first checkout verify record, so the page renders the right state before its first poll. */
  record: CheckoutRecord;
  /**
   * initialize's `saveCard`: the card form shows the box to keep the card (`optional`, unticked) or says the
   * card will be kept and charged later (`required`); null: nothing is saved.
   */
  saveCard: "optional" | "required" | null;
  /**
   * A charge of a saved card the merchant made, which the customer finishes here (an OTP, the bank's page):
   * the card it charges. There is no card form then, only the step. Null on every other payment.
   */
  savedCard: { brand: string; last4: string } | null;
  /**
   * The plan a payment from initialize with `plan` subscribes the customer to: the page states its terms
   * ("NGN 5,000.00 every month, first charge today") under the amount. Null on every other payment.
   */
  plan: { name: string; amount: string; currency: string; interval: string } | null;
};

export const TERMINAL: ReadonlySet<CheckoutStatus> = new Set(["success", "failed", "abandoned"]);
