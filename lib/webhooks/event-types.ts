/** The webhook events (docs/api.md). */
export const EVENT_TYPES = [
  /** Paid; the merchant verifies, then fulfils. */
  "payment.completed",
  /** The payment failed and will not complete. */
  "payment.failed",
  /** A virtual account was issued; waiting for the customer's transfer. */
  "checkout.awaiting_transfer",
  /** Checkout finished: `data.status` is success, failed or abandoned. */
  "checkout.completed",
  /**
   * Too little has arrived on the virtual account while its window is open: `amountMismatch` says what has
   * arrived so far and what is still due (transfers to the account add up; held, refunded if never completed).
   */
  "checkout.amount_mismatch",
  /** A refund reached the payer (docs/refunds.md); `data` is the refund with the transaction's reference. */
  "refund.processed",
  /** A refund could not be made; its money is refundable again. */
  "refund.failed",
] as const;

export type EventType = (typeof EVENT_TYPES)[number];
