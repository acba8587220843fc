/**
 * Transaction statuses (docs/states.md). A transaction starts `pending`; a channel attempt moves it to one of
 * the awaiting states; it ends in exactly one terminal state.
 */
export const TRANSACTION_STATUSES = [
  /** Created by initialize; no channel attempt yet. */
  "pending",
  /** A one-time virtual account was issued; waiting for the customer's transfer. */
  "awaiting_transfer",
  /** A bank payment request was sent; waiting for approval in the banking app. */
  "awaiting_bank_authorization",
  /** A USSD code was issued; waiting for the customer to dial and approve. */
  "awaiting_ussd",
  /** A card charge needs the one-time password the customer received. */
  "awaiting_otp",
  /** Paid. Final: happens at most once per transaction. */
  "success",
  /** The payment failed and will not complete. Final. */
  "failed",
  /** The customer gave up (cancelled, or the session expired unpaid). Final. */
  "abandoned",
] as const;

export type TransactionStatus = (typeof TRANSACTION_STATUSES)[number];

export const TERMINAL_STATUSES: ReadonlySet<TransactionStatus> = new Set(["success", "failed", "abandoned"]);

/** The statuses of a transaction still open: `pending` and the awaiting states, in declaration order. */
export const OPEN_STATUSES: readonly TransactionStatus[] = TRANSACTION_STATUSES.filter(
  (s) => !TERMINAL_STATUSES.has(s),
);

export function isTerminal(status: string): boolean {
  return TERMINAL_STATUSES.has(status as TransactionStatus);
}
