/** What a subscription can be (docs/guides/subscriptions.md). */
export const SUBSCRIPTION_STATUSES = [
  /** In its trial: nothing charged until the trial ends. */
  "trialing",
  /** Paid up; renews at `nextChargeAt`. */
  "active",
  /** A charge failed; it is tried again on the merchant's retry days. */
  "past_due",
  /** Ended: by request, at the period's end, or after the last retry failed (`cancelReason`). */
  "cancelled",
  /** Its plan's `invoiceLimit` of paid invoices was reached. */
  "completed",
] as const;

export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];

/** A subscription that will never be charged again. */
export const isEnded = (status: string) => status === "cancelled" || status === "completed";

/** The invoice statuses merchants see: its work states (pending, charging, waiting) all read `open`. */
export function invoiceStatus(workStatus: string): "paid" | "open" | "void" {
  if (workStatus === "paid") return "paid";
  if (workStatus === "void") return "void";
  return "open";
}
