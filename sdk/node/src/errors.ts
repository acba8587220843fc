/**
 * The one error every failed call throws: the API's failure envelope (`{status: "failed", error, message}`)
 * with the HTTP status and the request id, or, when no answer came (network, timeout), status 0.
 */
export class PaygateError extends Error {
  override readonly name = "PaygateError";
  /** HTTP status of the answer; 0 when none came (network error or timeout after every retry). */
  readonly status: number;
  /**
   * The API's error code, the failure envelope's `error` (`validation_error`, `invalid_api_key`,
   * `authorization_inactive`, `refund_exceeds_available`, …), or `network_error` / `timeout`. The QA kit's
   * errors name it `code` too.
   */
  readonly code: string;
  /** The `x-request-id` of the answer: quote it to support. */
  readonly requestId: string | null;
  /** For `validation_error`: the first field the message names (`amount`, `metadata.items[2].sku`). */
  readonly field: string | null;
  /** The raw failure body, when there was one. */
  readonly body: unknown;

  constructor(init: {
    status: number;
    code: string;
    message: string;
    requestId?: string | null;
    body?: unknown;
    cause?: unknown;
  }) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.status = init.status;
    this.code = init.code;
    this.requestId = init.requestId ?? null;
    this.body = init.body;
    this.field = init.code === "validation_error" ? fieldOf(init.message) : null;
  }
}

/** The API's validation messages start with the field they are about: `amount must be …`, `email is required`. */
const FIELD = /^([A-Za-z_][\w-]*(?:\.[A-Za-z_][\w-]*|\[\d+\])*) (?:must|is|has|may|should|needs|cannot)\b/;
const NOT_FIELDS = new Set(["body", "query", "path", "headers", "params"]);

function fieldOf(message: string): string | null {
  const field = FIELD.exec(message)?.[1];
  return field && !NOT_FIELDS.has(field) ? field : null;
}

/** A webhook whose signature, timestamp or body does not hold up: answer it 400 and do not act on it. */
export class WebhookVerificationError extends Error {
  override readonly name = "WebhookVerificationError";
  readonly reason:
    | "missing_headers"
    | "invalid_timestamp"
    | "timestamp_out_of_range"
    | "invalid_signature"
    | "invalid_body";
  constructor(reason: WebhookVerificationError["reason"], message: string) {
    super(message);
    this.reason = reason;
  }
}

/**
 * A webhook secret that cannot prove anything: unset, empty, not a `whsec_…` value, or under 16 bytes once
 * decoded. A key that short lets anyone sign a delivery (an empty key signs like any other), so no verifier is
 * made with one. Thrown when the verifier is made, not when a delivery arrives: a configuration mistake, never
 * a forged delivery, so a handler that answers WebhookVerificationError with 400 does not swallow it.
 */
export class WebhookSecretError extends TypeError {
  override readonly name = "WebhookSecretError";
  /** The variable the secret was read from, as the message names it (`PAYGATE_WEBHOOK_SECRET` unless told). */
  readonly secretName: string;
  constructor(secretName: string, message: string) {
    super(message);
    this.secretName = secretName;
  }
}
