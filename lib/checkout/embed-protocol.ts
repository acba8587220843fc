/**
 * The embedded checkout's messages (docs/guides/embed-the-checkout.md "Messages"): between the hosted page in
 * its frame and the merchant's page running /v1/inline.js (sdk/inline/paygate-inline.mjs, which keeps its own
 * copy of these rules: it has no dependencies). Each side posts only to the other's exact origin and reads a
 * message only from that origin and that window, and only in this shape:
 *
 *   { protocol: "paygate.inline", version: 1, type, reference?, status?, channel?, code?, message? }
 *
 * The frame says `loaded` (once), `pending` (a transfer, bank or USSD payment is under way), `success`,
 * `cancel` (the customer cancelled: the transaction is abandoned), `error` (the payment failed), `close` (the
 * customer is done) and `escape` (Escape pressed inside the frame). The page says `focus` (the modal opened:
 * put the keyboard focus on the checkout).
 * Types only, and a check: nothing here is secret, and nothing here is trusted without the origin check.
 */
export const PROTOCOL = "paygate.inline";
export const PROTOCOL_VERSION = 1;

export type FrameMessageType = "loaded" | "pending" | "success" | "cancel" | "error" | "close" | "escape";
export type PageMessageType = "focus";

export type FrameMessage = {
  protocol: typeof PROTOCOL;
  version: typeof PROTOCOL_VERSION;
  type: FrameMessageType;
  reference: string;
  status?: string;
  channel?: string | null;
  code?: string;
  message?: string;
};

/** The statuses that mean money may be on its way without the customer in the frame any more. */
export const UNDER_WAY: ReadonlySet<string> = new Set([
  "awaiting_transfer",
  "awaiting_bank_authorization",
  "awaiting_ussd",
]);

/** A message the merchant's page sent the frame, in the protocol's shape. */
export function isPageMessage(
  data: unknown,
): data is { protocol: string; version: number; type: PageMessageType } {
  if (typeof data !== "object" || data === null || Array.isArray(data)) return false;
  const m = data as Record<string, unknown>;
  return m.protocol === PROTOCOL && m.version === PROTOCOL_VERSION && m.type === "focus";
}
