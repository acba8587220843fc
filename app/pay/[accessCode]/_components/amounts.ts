import type { Channel, CheckoutRecord, CheckoutView } from "@/lib/checkout/types";
import { amountDifference } from "@/lib/i18n/format";

/**
 * What the customer pays on `channel`: the one amount every screen shows (header, tab, Pay button, receipt).
 * A finished payment's own total is the truth; before that, the channel's total from the session. The fee is
 * the customer's part only: when the merchant bears the cost, the customer pays the amount and sees no fee.
 */
export function customerTotal(view: CheckoutView, record: CheckoutRecord, channel: Channel) {
  const total =
    record.status === "success" && record.total
      ? record.total
      : channel === "card"
        ? view.totals.card
        : view.totals.transfer;
  return { total, fee: amountDifference(total, view.amount) };
}
