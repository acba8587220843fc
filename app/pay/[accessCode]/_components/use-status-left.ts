"use client";

import { useEffect, useRef } from "react";
import type { CheckoutStatus } from "@/lib/checkout/types";
import { useCheckout } from "./context";

/**
 * Calls `onLeft(status)` once the transaction, having been seen in `awaited` while `watching`, moves to
 * another status (e.g. back to `pending`: the bank request was declined). It waits until `awaited` has been
 * seen at least once, so the render between a charge's answer and the status update cannot end it early.
 */
export function useStatusLeft(
  watching: boolean,
  awaited: CheckoutStatus,
  onLeft: (status: CheckoutStatus) => void,
) {
  const { record } = useCheckout();
  const seen = useRef(false);
  const callback = useRef(onLeft);
  callback.current = onLeft;
  useEffect(() => {
    if (!watching) {
      seen.current = false;
      return;
    }
    if (record.status === awaited) {
      seen.current = true;
      return;
    }
    if (seen.current) {
      seen.current = false;
      callback.current(record.status);
    }
  }, [watching, awaited, record.status]);
}
