"use client";

import { createContext, useContext } from "react";
import type { Channel, CheckoutRecord, CheckoutView } from "@/lib/checkout/types";
import type { Locale } from "@/lib/i18n/locales";
import type { CheckoutMessages } from "@/lib/i18n/messages/en";

export type CheckoutContextValue = {
  view: CheckoutView;
  record: CheckoutRecord;
  /** The page's language, and its catalogue's checkout strings (only those reach the browser). */
  locale: Locale;
  t: CheckoutMessages;
  /** An amount in the page's language: "NGN 5,000.00", "5 000,00 NGN". */
  money: (amount: string, currency?: string) => string;
  /**
   * What a charge just answered: applied to the status at once (no waiting for the next poll), then polling
   * restarts at its fastest pace.
   */
  applyStatus: (patch: Partial<CheckoutRecord>) => Promise<void>;
  /** Poll now and keep polling fast for a while (after "I've sent the money", a sandbox action…). */
  refresh: () => void;
  /** Focus the selected payment-method tab ("pay another way"). */
  focusTabs: () => void;
  /**
   * What went wrong with a form the browser posted itself (submitCheckout in ../actions.ts), for the panel of
   * `channel` to show on its first render: a problem code (problem-text.ts), never text from the request.
   */
  posted: { channel: Channel | null; problem: string } | null;
  /**
   * The checkout opened embedded in a merchant's page (lib/checkout/embed-frame.ts): the page's origin, and
   * how the customer says they are done (the modal closes). Null on the checkout's own page.
   */
  embed: { origin: string; close: () => void } | null;
};

export const CheckoutContext = createContext<CheckoutContextValue | null>(null);

/** The payment method whose tab is selected now (a panel stays mounted while another tab is shown). */
export const SelectedChannelContext = createContext<Channel | null>(null);

export function useCheckout(): CheckoutContextValue {
  const value = useContext(CheckoutContext);
  if (!value) throw new Error("useCheckout outside <Checkout>");
  return value;
}
