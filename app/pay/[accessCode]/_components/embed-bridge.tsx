"use client";

import { useEffect, useRef } from "react";
import {
  type FrameMessage,
  type FrameMessageType,
  isPageMessage,
  PROTOCOL,
  PROTOCOL_VERSION,
  UNDER_WAY,
} from "@/lib/checkout/embed-protocol";
import { useCheckout } from "./context";

/** Posts one message to the page that framed the checkout, at its exact origin only. */
export function postToPage(
  origin: string,
  type: FrameMessageType,
  fields: Omit<FrameMessage, "protocol" | "version" | "type">,
) {
  const message: FrameMessage = { protocol: PROTOCOL, version: PROTOCOL_VERSION, type, ...fields };
  window.parent.postMessage(message, origin);
}

/**
 * The checkout opened embedded (lib/checkout/embed-frame.ts): tells the merchant's page what happens
 * (lib/checkout/embed-protocol.ts), and takes its `focus` message. Renders nothing.
 */
export function EmbedBridge({ origin }: { origin: string }) {
  const { view, record } = useCheckout();
  const reference = view.reference;
  const told = useRef<string | null>(null);

  useEffect(() => {
    postToPage(origin, "loaded", { reference, status: view.record.status });
  }, [origin, reference, view.record.status]);

  // Each status once, as the status poll (or a charge's answer) learns it.
  useEffect(() => {
    const status = record.status;
    if (told.current === status) return;
    told.current = status;
    const fields = { reference, status, channel: record.channel };
    if (status === "success") postToPage(origin, "success", fields);
    else if (status === "abandoned") postToPage(origin, "cancel", fields);
    else if (status === "failed")
      postToPage(origin, "error", { ...fields, code: "payment_failed", message: "The payment failed." });
    else if (UNDER_WAY.has(status)) postToPage(origin, "pending", fields);
  }, [origin, reference, record.status, record.channel]);

  useEffect(() => {
    const onMessage = (event: MessageEvent) => {
      if (event.source !== window.parent || event.origin !== origin || !isPageMessage(event.data)) return;
      // The modal opened: the keyboard starts on the checkout (the selected payment method, or the outcome's
      // first control), unless the customer is already somewhere in it.
      if (document.activeElement && document.activeElement !== document.body) return;
      const target =
        document.querySelector<HTMLElement>('[role="tab"][aria-selected="true"]') ??
        document.querySelector<HTMLElement>("main a[href], main button:not([disabled]), main input");
      target?.focus();
    };
    // Escape inside the frame closes the modal, as it does outside it; not while it closes something of the
    // page's own first (an open menu, an open list of banks).
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== "Escape" || event.defaultPrevented) return;
      if (document.querySelector("details[open]")) return;
      if (event.target instanceof Element && event.target.closest('[aria-expanded="true"]')) return;
      postToPage(origin, "escape", { reference });
    };
    window.addEventListener("message", onMessage);
    window.addEventListener("keydown", onKeyDown, true);
    return () => {
      window.removeEventListener("message", onMessage);
      window.removeEventListener("keydown", onKeyDown, true);
    };
  }, [origin, reference]);

  return null;
}
