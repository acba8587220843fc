/**
 * The one table of failure codes and their HTTP statuses (docs/api.md "Errors", including the codes
 * for unknown routes, wrong methods, bad credentials on login, duplicate signups).
 * Domain code throws `AppError(code, message)`; only `withApi` turns one into a Response.
 */
export const ERROR_STATUS = {
  validation_error: 400,
  /** The HTTP request itself is malformed (bad header bytes, broken percent-encoding); answered by server.mjs. */
  bad_request: 400,
  invalid_json: 400,
  channel_unavailable: 400,
  email_required: 400,
  /** A processor event older than PAYSTACK_WEBHOOK_MAX_AGE_SECONDS. */
  stale_event: 400,
  invalid_api_key: 401,
  invalid_access_code: 401,
  invalid_session: 401,
  invalid_credentials: 401,
  /** A wrong, replayed or used two-factor code (or recovery code) on a sign-in challenge. */
  invalid_two_factor_code: 401,
  /** An invitation, password-reset or email-confirmation link that is unknown, used, replaced or expired. */
  invalid_token: 400,
  /** A processor webhook without a valid signature of a key this deployment holds (lib/rails/paystack/). */
  invalid_signature: 401,
  /** GET /v1/metrics with a token other than METRICS_TOKEN, or none from an address it does not list. */
  invalid_metrics_token: 401,
  test_mode_only: 403,
  /** A member whose role lacks the endpoint's permission (the message names it: lib/core/roles.ts). */
  forbidden: 403,
  /** A processor webhook from an address outside PAYSTACK_WEBHOOK_ALLOWED_IPS; GET /v1/metrics from one outside METRICS_ALLOWED_ADDRESSES. */
  address_not_allowed: 403,
  /** A console mutation from another site (its Origin is not this service's). */
  cross_origin: 403,
  transaction_not_found: 404,
  payment_link_not_found: 404,
  event_not_found: 404,
  refund_not_found: 404,
  customer_not_found: 404,
  /** A saved card's code that is unknown, another merchant's or another mode's. */
  authorization_not_found: 404,
  /** A plan's code that is unknown, another merchant's or another mode's. */
  plan_not_found: 404,
  /** A subscription's code that is unknown, another merchant's or another mode's. */
  subscription_not_found: 404,
  route_not_found: 404,
  /** A merchant the signed-in user is not a member of (or that does not exist). */
  merchant_not_found: 404,
  /** A team member or invitation id that is unknown or another merchant's. */
  member_not_found: 404,
  method_not_allowed: 405,
  /** The request's headers, or the whole request, did not arrive in time; answered by server.mjs. */
  request_timeout: 408,
  invalid_state: 409,
  /** A payment step (a PIN, an OTP, a phone number) answered again while, or after, another answer of it went through. */
  step_already_answered: 409,
  /** A refund larger than what is still refundable on the transaction. */
  refund_exceeds_available: 409,
  /** The payment link is deactivated, expired or used up. */
  payment_link_unavailable: 409,
  /** A live payment of a merchant with no payment processor connected (and no deployment default key). */
  live_not_connected: 409,
  /** A saved card deactivated by the merchant, or past its card's expiry. */
  authorization_inactive: 409,
  /** A reference given to charge-authorization that another payment already has. */
  reference_in_use: 409,
  /** A deactivated plan takes no new subscriptions. */
  plan_inactive: 409,
  /** A subscription that has ended (cancelled or completed) cannot be changed or cancelled again. */
  subscription_ended: 409,
  idempotency_in_progress: 409,
  email_taken: 409,
  /** The change would leave the merchant without an owner. */
  last_owner: 409,
  /** An invitation to someone who is already a member. */
  already_member: 409,
  payload_too_large: 413,
  /** Request headers too large; answered by server.mjs. */
  headers_too_large: 431,
  unsupported_media_type: 415,
  idempotency_key_reused: 422,
  rate_limited: 429,
  internal_error: 500,
  /** The payment processor refused the request or could not be reached, and nothing was charged. */
  processor_error: 502,
  service_unavailable: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

/**
 * One failing field of a `validation_error`, for forms: the field's path as the request named it
 * (`amount`, `fields.size`, `metadata.items[2].sku`), the rule it broke as a stable code a form words in its
 * own language (`required`, `invalid_type`, `too_small`, `too_big`, `invalid_format`, `invalid_value`,
 * `unrecognized_keys`, `min_amount`, `max_amount`, `in_the_past`, …), and the sentence the message carries.
 * The /v1 failure envelope stays `{status, error, message}` (docs/api.md "Errors"); the console's own routes add `fields`.
 */
export type FieldIssue = { field: string; rule: string; message: string };

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  /** Extra response headers, e.g. `Retry-After` on `rate_limited`. */
  readonly headers: Record<string, string>;
  /** A `validation_error`'s failing fields, one entry per sentence of the message that names a field. */
  readonly fields: readonly FieldIssue[];

  constructor(
    code: ErrorCode,
    message: string,
    headers: Record<string, string> = {},
    fields: readonly FieldIssue[] = [],
  ) {
    super(message);
    this.name = "AppError";
    this.code = code;
    this.status = ERROR_STATUS[code];
    this.headers = headers;
    this.fields = fields;
  }
}

/**
 * A `validation_error` about one field: `invalidField("expiresAt", "in_the_past", "expiresAt must be in the
 * future")` answers the message "expiresAt must be in the future." and the field's entry for forms.
 */
export function invalidField(field: string, rule: string, sentence: string): AppError {
  return new AppError("validation_error", `${sentence}.`, {}, [{ field, rule, message: sentence }]);
}

export function isAppError(err: unknown): err is AppError {
  return err instanceof AppError;
}
