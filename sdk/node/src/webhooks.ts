import { createHmac, timingSafeEqual } from "node:crypto";
import { WebhookVerificationError } from "./errors.js";
import type { Webhooks } from "./generated/types.gen.js";

/** A webhook body as delivered (`{event, data, timestamp}`), one member per event, narrowed by `event`. */
export type PaygateEvent = Webhooks["body"];
export type PaygateEventType = PaygateEvent["event"];
/** The body of one event type: `EventOf<"payment.completed">["data"]` is what that event carries. */
export type EventOf<T extends PaygateEventType> = Extract<PaygateEvent, { event: T }>;

export type WebhookHeaders =
  | Headers
  | Record<string, string | string[] | undefined>
  | { get(name: string): string | null };

export type VerifyOptions = {
  /** How far the signed timestamp may be from now, in seconds (default 300, as Standard Webhooks advise). */
  toleranceSeconds?: number;
  /** "Now" in milliseconds, for tests. */
  now?: number;
};

function header(headers: WebhookHeaders, name: string): string | undefined {
  if (typeof (headers as Headers).get === "function") return (headers as Headers).get(name) ?? undefined;
  const record = headers as Record<string, string | string[] | undefined>;
  const value =
    record[name] ?? Object.entries(record).find(([k]) => k.toLowerCase() === name)?.[1] ?? undefined;
  return Array.isArray(value) ? value[0] : value;
}

/**
 * Check a delivery's Standard Webhooks signature (`webhook-signature`: `v1,<base64 HMAC-SHA256 of
 * id.timestamp.body>` under the endpoint's `whsec_…` secret; several while a rolled secret still signs) and
 * its timestamp, then parse it. Pass the body exactly as received (the raw bytes, before any JSON parsing).
 * Throws WebhookVerificationError; answer such a request 400 and do not act on it.
 */
export function verifyWebhook(
  rawBody: string | Uint8Array,
  headers: WebhookHeaders,
  secret: string,
  options: VerifyOptions = {},
): PaygateEvent {
  const id = header(headers, "webhook-id");
  const timestamp = header(headers, "webhook-timestamp");
  const signatures = header(headers, "webhook-signature");
  if (!id || !timestamp || !signatures)
    throw new WebhookVerificationError(
      "missing_headers",
      "webhook-id, webhook-timestamp and webhook-signature are required",
    );
  if (!/^\d{1,12}$/.test(timestamp))
    throw new WebhookVerificationError("invalid_timestamp", "webhook-timestamp is not unix seconds");
  const now = Math.floor((options.now ?? Date.now()) / 1000);
  const tolerance = options.toleranceSeconds ?? 300;
  if (Math.abs(now - Number(timestamp)) > tolerance)
    throw new WebhookVerificationError(
      "timestamp_out_of_range",
      `webhook-timestamp is more than ${tolerance} s from now (a replay, or this server's clock is off)`,
    );
  const key = Buffer.from(secret.startsWith("whsec_") ? secret.slice(6) : secret, "base64");
  const body = typeof rawBody === "string" ? Buffer.from(rawBody, "utf8") : Buffer.from(rawBody);
  const expected = createHmac("sha256", key).update(`${id}.${timestamp}.`).update(body).digest();
  const matches = signatures.split(" ").some((entry) => {
    const [version, signature] = entry.split(",", 2);
    if (version !== "v1" || !signature) return false;
    const given = Buffer.from(signature, "base64");
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
  if (!matches)
    throw new WebhookVerificationError(
      "invalid_signature",
      "no webhook-signature matches this secret and body",
    );
  let event: unknown;
  try {
    event = JSON.parse(body.toString("utf8"));
  } catch {
    throw new WebhookVerificationError("invalid_body", "the signed body is not JSON");
  }
  const e = event as { event?: unknown; data?: unknown; timestamp?: unknown };
  if (typeof e?.event !== "string" || typeof e.data !== "object" || e.data === null)
    throw new WebhookVerificationError("invalid_body", "the signed body is not {event, data, timestamp}");
  return event as PaygateEvent;
}
