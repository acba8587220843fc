import type { Channel, CheckoutStatus, CheckoutView } from "./types";

/** The tab a waiting status belongs to, so a reload lands where the customer was. */
const TAB_OF_STATUS: Partial<Record<CheckoutStatus, Channel>> = {
  awaiting_otp: "card",
  awaiting_transfer: "bank_transfer",
  awaiting_bank_authorization: "bank_payment",
  awaiting_ussd: "ussd",
};

/**
 * The payment method the checkout opens on: the one the address asks for (`?channel=`, a tab's link), else
 * the one whose step the transaction waits on, else the first the transaction offers. The page's server component and its
 * client component both start from it, so the panel the server renders is the one selected.
 */
export function initialChannel(
  view: Pick<CheckoutView, "channels" | "record">,
  asked: string | null,
): Channel {
  const wanted = view.channels.find((c) => c === asked);
  return (
    wanted ?? view.record.action?.channel ?? TAB_OF_STATUS[view.record.status] ?? view.channels[0] ?? "card"
  );
}
