import { createHmac, timingSafeEqual } from "node:crypto";
import { WebhookSecretError, WebhookVerificationError } from "./errors.js";
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

export type VerifierOptions = {
  /** How far the signed timestamp may be from now, in seconds (default 300, as Standard Webhooks advise). */
  toleranceSeconds?: number;
  /** The variable the secret comes from, for the error a missing or short one throws (default PAYGATE_WEBHOOK_SECRET). */
  secretName?: string;
};

/** The shortest key a verifier takes, in bytes once decoded (Paygate's own secrets have 32). */
export const MIN_WEBHOOK_SECRET_BYTES = 16;
const DEFAULT_SECRET_NAME = "PAYGATE_WEBHOOK_SECRET";
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=|[A-Za-z0-9+/]{2,3})?$/;
const WHERE = "your endpoint's whsec_… secret (the console's Webhooks page, or PUT /v1/merchants/webhook)";

/**
 * The HMAC key of a `whsec_…` secret (the prefix is optional, as Standard Webhooks have it), or a
 * WebhookSecretError naming `name`: an unset or empty secret, one that is not base64, or one under 16 bytes
 * would let anyone sign (Node's base64 decoder turns `whsec_`, or `whsec_!!!!`, into an empty key without a word).
 */
function keyOf(secret: string | undefined, name: string): Buffer {
  const fail = (what: string) =>
    new WebhookSecretError(
      name,
      `${name} ${what}: set it to ${WHERE}. A key under ${MIN_WEBHOOK_SECRET_BYTES} bytes would let anyone forge a webhook, so none is checked with it.`,
    );
  if (secret === undefined || secret === null) throw fail("is not set");
  if (typeof secret !== "string") throw fail(`is a ${typeof secret}, not a string`);
  const encoded = (secret.startsWith("whsec_") ? secret.slice("whsec_".length) : secret).trim();
  if (encoded === "") throw fail(secret === "" ? "is empty" : "holds the whsec_ prefix and nothing after it");
  if (!BASE64.test(encoded)) throw fail("is not a whsec_… secret (base64 after the prefix)");
  const key = Buffer.from(encoded, "base64");
  if (key.length < MIN_WEBHOOK_SECRET_BYTES)
    throw fail(`decodes to ${key.length} bytes, under the ${MIN_WEBHOOK_SECRET_BYTES} bytes a secret needs`);
  return key;
}

function header(headers: WebhookHeaders, name: string): string | undefined {
  if (typeof (headers as Headers).get === "function") return (headers as Headers).get(name) ?? undefined;
  const record = headers as Record<string, string | string[] | undefined>;
  const value =
    record[name] ?? Object.entries(record).find(([k]) => k.toLowerCase() === name)?.[1] ?? undefined;
  return Array.isArray(value) ? value[0] : value;
}

/**
 * Checks deliveries signed under one endpoint secret. Make it once, when the server starts
 * (`new WebhookVerifier(process.env.PAYGATE_WEBHOOK_SECRET)`): an unset, empty, malformed or short secret
 * throws WebhookSecretError there, naming the variable, rather than letting forged deliveries through.
 */
export class WebhookVerifier {
  readonly #key: Buffer;
  readonly #toleranceSeconds: number;

  constructor(secret: string | undefined, options: VerifierOptions = {}) {
    this.#key = keyOf(secret, options.secretName ?? DEFAULT_SECRET_NAME);
    this.#toleranceSeconds = options.toleranceSeconds ?? 300;
  }

  /**
   * Check a delivery's Standard Webhooks signature (`webhook-signature`: `v1,<base64 HMAC-SHA256 of
   * id.timestamp.body>` under the endpoint's secret; several while a rolled secret still signs) and its
   * timestamp, then parse it. Pass the body exactly as received (the raw bytes, before any JSON parsing).
   * Throws WebhookVerificationError; answer such a request 400 and do not act on it.
   */
  verify(
    rawBody: string | Uint8Array,
    headers: WebhookHeaders,
    options: Pick<VerifyOptions, "now"> = {},
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
    const tolerance = this.#toleranceSeconds;
    if (Math.abs(now - Number(timestamp)) > tolerance)
      throw new WebhookVerificationError(
        "timestamp_out_of_range",
        `webhook-timestamp is more than ${tolerance} s from now (a replay, or this server's clock is off)`,
      );
    const body = typeof rawBody === "string" ? Buffer.from(rawBody, "utf8") : Buffer.from(rawBody);
    const expected = createHmac("sha256", this.#key).update(`${id}.${timestamp}.`).update(body).digest();
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
}

/**
 * One delivery checked under `secret` (see WebhookVerifier, which a server makes once instead). Throws
 * WebhookSecretError for a secret that cannot prove anything, WebhookVerificationError for a delivery that
 * does not hold up.
 */
export function verifyWebhook(
  rawBody: string | Uint8Array,
  headers: WebhookHeaders,
  secret: string,
  options: VerifyOptions = {},
): PaygateEvent {
  return new WebhookVerifier(secret, { toleranceSeconds: options.toleranceSeconds }).verify(
    rawBody,
    headers,
    {
      now: options.now,
    },
  );
}
