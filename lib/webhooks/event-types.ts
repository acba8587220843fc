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
  /** A subscription started (docs/guides/subscriptions.md); `data.subscription` is it. */
  "subscription.created",
  /** A period's invoice was paid; `data.invoice` is it. */
  "subscription.renewed",
  /** A charge of an invoice failed; `data.invoice.nextAttemptAt` says when it is tried again (null: never). */
  "invoice.payment_failed",
  /** A renewal failed: the subscription is tried again on the merchant's retry days. */
  "subscription.past_due",
  /** Cancelled: by the merchant or the customer (at once or at the period's end), or after the last retry failed. */
  "subscription.cancelled",
  /** Its plan's `invoiceLimit` of paid invoices was reached. */
  "subscription.completed",
] as const;

export type EventType = (typeof EVENT_TYPES)[number];
