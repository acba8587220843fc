"use client";

import { createContext, useContext } from "react";
import type { CheckoutRecord, CheckoutView } from "@/lib/checkout/types";

export type CheckoutContextValue = {
  view: CheckoutView;
  record: CheckoutRecord;
  /**
   * What a charge just answered: applied to the status at once (no waiting for the next poll), then polling
   * restarts at its fastest pace.
   */
  applyStatus: (patch: Partial<CheckoutRecord>) => Promise<void>;
  /** Poll now and keep polling fast for a while (after "I've sent the money", a sandbox action…). */
  refresh: () => void;
  /** Focus the selected payment-method tab ("pay another way"). */
  focusTabs: () => void;
};

export const CheckoutContext = createContext<CheckoutContextValue | null>(null);

export function useCheckout(): CheckoutContextValue {
  const value = useContext(CheckoutContext);
  if (!value) throw new Error("useCheckout outside <Checkout>");
  return value;
}
