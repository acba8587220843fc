import type { Channel } from "@/lib/checkout/types";
import { BankPaymentPanel } from "./bank-payment-panel";
import { CardPanel } from "./card-panel";
import { TransferPanel } from "./transfer-panel";
import { UssdPanel } from "./ussd-panel";

/**
 * The panel of the tab the page opens on, for the page's server component to pass to the checkout
 * (checkout.tsx says why): an element of the panel's client component itself, not of a server component
 * around it, so the RSC payload carries it inline with the checkout rather than as a row of its own that the
 * server's HTML would have to wait for. Each panel is a client component of its own chunk, and only the one
 * rendered comes with the page.
 */
export function initialPanel(channel: Channel) {
  switch (channel) {
    case "card":
      return <CardPanel />;
    case "bank_transfer":
      return <TransferPanel />;
    case "bank_payment":
      return <BankPaymentPanel />;
    case "ussd":
      return <UssdPanel />;
  }
}
