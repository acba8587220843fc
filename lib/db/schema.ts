import type { Generated } from "kysely";
import type { Mode } from "@/lib/core/principal";

/**
 * Table types. Conventions, the same on SQLite and PostgreSQL:
 *  - money is integer minor units in `bigint` columns (`*_minor`); pg returns those as strings and SQLite as
 *    numbers, so rows are read through `toMinor()` into a bigint,
 *  - times are unix milliseconds in `bigint` columns (`*_at`), read through `toMillis()`,
 *  - booleans are 0/1 integers, JSON is text,
 *  - every table holding merchant data has `merchant_id` and `mode` ("test" | "live").
 */
export type Int = number | string | bigint;

export type { Mode };

export interface MerchantsTable {
  id: string;
  business_name: string;
  email: string;
  password_hash: string;
  /** JSON array of enabled channels. */
  channels: string;
  merchant_bears_cost: number;
  brand_color: string | null;
  logo_url: string | null;
  /** The merchant's own fee rules per currency, JSON (lib/money/fees.ts); null = the default. */
  fee_schedule: string | null;
  /** JSON array of the web origins that may frame the merchant's checkout (lib/merchants/embed-origins.ts); null = none. */
  embed_origins: string | null;
  /** JSON array of the days after a failed renewal on which it is tried again (lib/billing/dunning.ts); null = 1, 3, 5. */
  dunning_days: string | null;
  /** 1: every member must sign in with a second factor (an owner's switch). */
  require_two_factor: Generated<number>;
  created_at: Int;
  updated_at: Int;
}

/** Someone who signs in: an email and a password, in any number of merchants (`memberships`). */
export interface UsersTable {
  id: string;
  email: string;
  password_hash: string;
  email_confirmed_at: Int | null;
  /** The TOTP secret being set up (sealed), until a code of it enables it. */
  totp_pending_sealed: string | null;
  /** The enabled TOTP secret, sealed like the Paystack key (lib/merchants/two-factor.ts). */
  totp_secret_sealed: string | null;
  totp_enabled_at: Int | null;
  /** The last 30-second step a code was accepted at: a code is accepted once. */
  totp_last_step: Int | null;
  created_at: Int;
  updated_at: Int;
}

/** A single-use recovery code of a user's two-factor sign-in (hashed). */
export interface RecoveryCodesTable {
  id: string;
  user_id: string;
  code_hash: string;
  created_at: Int;
  used_at: Int | null;
}

/** Between a right password and its code: a sign-in waiting for the second factor. */
export interface LoginChallengesTable {
  id: string;
  token_hash: string;
  user_id: string;
  merchant_id: string | null;
  device_id: string | null;
  attempts: number;
  created_at: Int;
  expires_at: Int;
  used_at: Int | null;
}

/** A single-use emailed link of a user: a password reset or an email confirmation (its token hashed). */
export interface UserTokensTable {
  id: string;
  user_id: string;
  /** "password_reset" | "email_confirmation" */
  kind: string;
  token_hash: string;
  created_at: Int;
  expires_at: Int;
  used_at: Int | null;
}

/** A user in a merchant, with a role (lib/core/roles.ts). */
export interface MembershipsTable {
  id: string;
  merchant_id: string;
  user_id: string;
  role: string;
  created_at: Int;
  updated_at: Int;
  last_sign_in_at: Int | null;
}

/** An invitation to join a merchant (its token stored as a keyed hash only). */
export interface InvitationsTable {
  id: string;
  merchant_id: string;
  email: string;
  role: string;
  token_hash: string;
  /** The membership that invited. */
  invited_by: string;
  created_at: Int;
  expires_at: Int;
  accepted_at: Int | null;
  revoked_at: Int | null;
}

/** One change made with a session or a secret key, written in the change's own transaction; never updated. */
export interface AuditLogTable {
  id: string;
  merchant_id: string;
  mode: Mode;
  at: Int;
  action: string;
  target: string | null;
  /** "member" | "secret_key" */
  actor_type: string;
  actor_email: string | null;
  actor_key_last4: string | null;
  address: string | null;
}

export interface ApiKeysTable {
  id: string;
  merchant_id: string;
  mode: Mode;
  /** HMAC-SHA256(APP_SECRET, key), hex. */
  key_hash: string;
  /** Last four characters, to tell keys apart in a console. */
  key_last4: string;
  created_at: Int;
  revoked_at: Int | null;
}

export interface MerchantSessionsTable {
  id: string;
  merchant_id: string;
  /** The membership (a user in this merchant) the session acts as; null only on rows from before 0035. */
  membership_id: string | null;
  token_hash: string;
  created_at: Int;
  expires_at: Int;
  revoked_at: Int | null;
}

export interface TransactionsTable {
  id: string;
  reference: string;
  merchant_id: string;
  mode: Mode;
  access_code: string;
  access_expires_at: Int;
  amount_minor: Int;
  currency: string;
  email: string | null;
  customer_name: string | null;
  callback_url: string | null;
  /**
   * The hosted pages' language for this payment (lib/i18n/locales.ts): initialize's `locale`, or the one the
   * customer picked in the checkout's menu; null: chosen per visit (?lang=, Accept-Language).
   */
  locale: string | null;
  description: string | null;
  /** JSON object or null. */
  metadata: string | null;
  /** JSON object of key -> minor units (as strings) or null. */
  distribution: string | null;
  merchant_bears_cost: number;
  /** JSON array of the channels offered on this transaction. */
  channels: string;
  card_fee_minor: Int;
  transfer_fee_minor: Int;
  status: string;
  channel: string | null;
  fees_minor: Int | null;
  total_minor: Int | null;
  amount_settled_minor: Int | null;
  paid_at: Int | null;
  created_at: Int;
  updated_at: Int;
  mismatch_expected_minor: Int | null;
  mismatch_received_minor: Int | null;
  /** The payment link this transaction was started from, if any. */
  payment_link_id: string | null;
  /** Merchant refunds not failed, minor units (docs/refunds.md). */
  amount_refunded_minor: Generated<Int>;
  /** Automatic refunds that failed: money back with the merchant, refundable again. */
  refund_credit_minor: Generated<Int>;
  /**
   * Made by `POST /v1/payment/initialize` with an `Idempotency-Key`: the key's keyed hash (scoped to merchant
   * and mode; unique) and the request body's, so a retry finds this transaction (docs/decisions/005).
   */
  idempotency_ref: string | null;
  idempotency_request_hash: string | null;
  /**
   * Started on a payment link with a usage limit: until when the checkout holds its place on the link while
   * no payment is under way (lib/links/holds-place.ts); null on other transactions.
   */
  link_place_until: Int | null;
  /** Started on a usage-limited link: a keyed hash of the client address that started it (places per address). */
  link_holder: string | null;
  /** The customer of the transaction's email (lib/customers); null without an email. */
  customer_id: string | null;
  /** Initialize's `saveCard`: "optional" | "required"; null: no card is saved. */
  save_card: string | null;
  /** The invoice (invoices) this payment charges: a subscription's renewal or its first charge. */
  invoice_id: string | null;
  /** The subscription this payment charges, or (initialize with `plan`) starts. */
  subscription_id: string | null;
  /** The plan (plans) a payment from initialize with `plan` subscribes its customer to, on its first success. */
  plan_id: string | null;
  /** The saved card (card_authorizations) this payment saved, or charged with the customer away. */
  authorization_id: string | null;
  /** 1: a charge of a saved card with the customer away (POST /v1/payment/charge-authorization). */
  merchant_initiated: Generated<number>;
  /**
   * Started on a usage-limited link: when a payment first started on it (unix ms); null while nobody has
   * started paying, when its place may be handed to a customer who does (lib/links/hand-over-place.ts).
   */
  link_payment_started_at: Int | null;
}

/** One try at paying on one channel; a transaction may have many (the customer can switch channels). */
export interface ChargeAttemptsTable {
  id: string;
  transaction_id: string;
  merchant_id: string;
  mode: Mode;
  channel: string;
  /** AttemptStatus (lib/payments/attempts.ts). */
  status: string;
  /** JSON: what the channel needs to remember (card brand/last4/expiry, bank code, USSD code, rail refs). */
  details: string;
  failure_reason: string | null;
  /** Money the rail took from the customer on this attempt (card, bank payment, USSD), minor units. */
  captured_minor: Int | null;
  created_at: Int;
  updated_at: Int;
}

/** A one-time account number issued for a bank transfer attempt. */
export interface VirtualAccountsTable {
  id: string;
  transaction_id: string;
  attempt_id: string;
  merchant_id: string;
  mode: Mode;
  account_number: string;
  bank_name: string;
  account_name: string;
  expected_minor: Int;
  currency: string;
  expires_at: Int;
  created_at: Int;
  /** The rail that issued it: null for the sandbox, "paystack" for Paystack's temporary accounts. */
  rail: string | null;
}

/** Every transfer a rail reported, exactly once per (rail, session_id), and what became of it. */
export interface InboundTransfersTable {
  id: string;
  rail: string;
  session_id: string;
  account_number: string;
  amount_minor: Int;
  merchant_id: string | null;
  mode: Mode | null;
  transaction_id: string | null;
  /**
   * What the service answered when the transfer was first reported: "credited" | "amount_mismatch" |
   * "duplicate_payment" | "late_payment" | "unknown_account".
   */
  outcome: string;
  received_at: Int;
  /**
   * A transfer answered `amount_mismatch` inside its window: "held" while it adds up toward its account's
   * amount, then "credited" (part of the payment) or "refunded" (an automatic refund). Null for every other
   * transfer, and for short transfers recorded before transfers added up, which were refunded at once.
   */
  partial: PartialTransfer | null;
}

export type PartialTransfer = "held" | "credited" | "refunded";

/** Money going back to a payer (docs/refunds.md): asked for by the merchant, or automatic. */
export interface RefundsTable {
  /** `rfd_…` */
  id: string;
  /** Null only for money sent to an account no transaction owns (`unknown_account`). */
  transaction_id: string | null;
  merchant_id: string | null;
  mode: Mode | null;
  reference: string | null;
  /** "merchant" | "automatic" */
  type: string;
  /** The merchant's words, or for automatic refunds "amount_mismatch" | "duplicate_payment" | "late_payment" | "unknown_account". */
  reason: string | null;
  amount_minor: Int;
  currency: string;
  /** "pending" → "processed" | "failed" */
  status: string;
  /**
   * Automatic refunds: "bank_transfer" (source_id = inbound transfer) or a charge channel (source_id = attempt).
   * Merchant refunds asked for with an Idempotency-Key: "idempotency_key" (source_id = the key's keyed hash).
   */
  source: string | null;
  source_id: string | null;
  /** The rail that returns the money: "sandbox" in test mode, "paystack" for money Paystack took. */
  rail: string;
  rail_reference: string | null;
  /** The rail's reference of the charge whose money goes back (rail_charges); null on the sandbox. */
  charge_reference: string | null;
  failure_reason: string | null;
  /** When a pending refund is next looked at. */
  due_at: Int;
  created_at: Int;
  processed_at: Int | null;
  updated_at: Int;
}

/** What the sandbox card network decided for an attempt (asked again by card reconciliation). */
export interface SandboxCardChargesTable {
  attempt_id: string;
  /** JSON CardOutcome. */
  outcome: string;
  created_at: Int;
}

/** A merchant's own processor account for one mode: its secret key, sealed, never shown again. */
export interface ProcessorConnectionsTable {
  /** `psc_…`: named in the webhook address the console shows. */
  id: string;
  merchant_id: string;
  mode: Mode;
  /** "paystack" */
  processor: string;
  /** seal(APP_SECRET, secret key, purpose "processor-secret-key", context "<merchant>:<mode>:<processor>"). */
  secret_sealed: string;
  key_last4: string;
  created_at: Int;
  updated_at: Int;
}

/** An attempt that reached a processor, under the reference the processor knows it by. */
export interface RailChargesTable {
  rail_reference: string;
  /** "paystack" */
  rail: string;
  attempt_id: string;
  transaction_id: string;
  merchant_id: string;
  mode: Mode;
  channel: string;
  /** "merchant" (the merchant's connection) or "deployment" (the deployment's default key). */
  key_source: string;
  /** What the processor was asked to take, minor units. */
  amount_minor: Int;
  currency: string;
  /** The processor's own id of the charge, once known. */
  rail_id: string | null;
  created_at: Int;
}

/** A processor event acted on (or found to be nothing of ours), once per event key. */
export interface ProcessorEventsTable {
  event_key: string;
  rail: string;
  event: string;
  reference: string | null;
  outcome: string;
  received_at: Int;
}

/** A merchant's customer in one mode, one per email (lib/customers): `id` is its code, `CUS_…`. */
export interface CustomersTable {
  id: string;
  merchant_id: string;
  mode: Mode;
  email: string;
  /** The email as compared: trimmed, lower case (unique per merchant and mode). */
  email_key: string;
  name: string | null;
  phone: string | null;
  /** JSON object or null. */
  metadata: string | null;
  created_at: Int;
  updated_at: Int;
}

/** A saved card (docs/customers.md): `id` is its code, `AUTH_…`. */
export interface CardAuthorizationsTable {
  id: string;
  merchant_id: string;
  mode: Mode;
  customer_id: string;
  /** A keyed hash of the card number, per merchant and mode (lib/customers/card-fingerprint.ts); never the number. */
  fingerprint: string;
  /** `fingerprint` while active, null once deactivated (unique per customer where set). */
  active_fingerprint: string | null;
  /** The rail that saved it and charges it: "sandbox" | "paystack". */
  rail: string;
  /** Whose processor key saved it (rail_charges.key_source); null on the sandbox. */
  key_source: string | null;
  /** The rail's token to charge the card again (Paystack's authorization_code), sealed (lib/security/seal.ts). */
  token_sealed: string;
  brand: string;
  last4: string;
  exp_month: number;
  exp_year: number;
  bank: string | null;
  /** "active" | "deactivated" ("expired" is read from the expiry and the clock). */
  status: string;
  /** Test mode: how far its clock was moved (POST /v1/sandbox/clock/advance), ms. */
  clock_offset_ms: Generated<Int>;
  created_at: Int;
  updated_at: Int;
  last_used_at: Int | null;
  deactivated_at: Int | null;
}

/** A customer's consent to keep a card, as it was given on the checkout. */
export interface CardConsentsTable {
  id: string;
  authorization_id: string;
  merchant_id: string;
  mode: Mode;
  transaction_id: string;
  /** Initialize's saveCard: "optional" (a box ticked) | "required" (the payment's terms). */
  kind: string;
  /** The words the customer was shown. */
  text: string;
  locale: string;
  client_address: string;
  given_at: Int;
}

/** The sandbox card network's reusable tokens (test mode): how a charge of each one is answered. */
export interface SandboxCardTokensTable {
  token: string;
  /** "succeeds" | "declines" | "asks_otp" (lib/rails/sandbox.ts); never a card number. */
  behaviour: string;
  created_at: Int;
}

/** A merchant's plan in one mode (docs/guides/subscriptions.md): `id` is its code, `PLN_…`. */
export interface PlansTable {
  id: string;
  merchant_id: string;
  mode: Mode;
  name: string;
  description: string | null;
  /** Charged each period from the period after a change (a subscription's invoice keeps its own amount). */
  amount_minor: Int;
  currency: string;
  /** "daily" | "weekly" | "monthly" | "quarterly" | "biannually" | "annually" (lib/billing/periods.ts). */
  interval: string;
  trial_days: number;
  /** Paid invoices after which a subscription is `completed`; null: no end. */
  invoice_limit: number | null;
  active: number;
  created_at: Int;
  updated_at: Int;
}

/** A customer's subscription to a plan: `id` is its code, `SUB_…`. Its times are on its own clock. */
export interface SubscriptionsTable {
  id: string;
  merchant_id: string;
  mode: Mode;
  customer_id: string;
  plan_id: string;
  /** The saved card it charges (card_authorizations). */
  authorization_id: string | null;
  /** "trialing" | "active" | "past_due" | "cancelled" | "completed" (lib/billing/subscription-status.ts). */
  status: string;
  /** The start of its first period: the calendar its periods follow (its clock). */
  start_at: Int;
  trial_end_at: Int | null;
  current_period_start: Int;
  current_period_end: Int;
  cancel_at_period_end: number;
  invoices_paid: number;
  /** Test mode: how far its clock was moved (POST /v1/sandbox/clock/advance), ms. */
  clock_offset_ms: Generated<Int>;
  created_at: Int;
  updated_at: Int;
  cancelled_at: Int | null;
  /** "requested" | "payment_failed" | "period_end" while cancelled. */
  cancel_reason: string | null;
}

/**
 * One invoice per subscription and period (unique), and the renewal job's work row: `status` pending (due at
 * `due_at`, real time) → charging (claimed until `locked_until`) → waiting (its payment undecided) → paid | void.
 */
export interface InvoicesTable {
  id: string;
  subscription_id: string;
  merchant_id: string;
  mode: Mode;
  /** 0 for the first period, then one more each period. */
  period_index: number;
  /** The period, on the subscription's clock. */
  period_start: Int;
  period_end: Int;
  amount_minor: Int;
  currency: string;
  status: string;
  due_at: Int;
  locked_until: Int | null;
  /** Charges tried so far (each one a payment whose reference is made from the invoice and its number). */
  attempts: number;
  /** The reference of the latest charge. */
  reference: string | null;
  created_at: Int;
  updated_at: Int;
  paid_at: Int | null;
}

/** An email to a subscription's customer (lib/billing/subscription-mail.ts): the outbox row and its progress. */
export interface SubscriptionEmailsTable {
  id: string;
  subscription_id: string;
  invoice_id: string | null;
  /** "payment_failed" | "action_required" | "cancelled". */
  kind: string;
  /** What caused it (one email per cause). */
  dedupe_key: string;
  recipient: string;
  /** pending → sending → sent, or failed once its attempts are spent. */
  status: string;
  attempts: number;
  due_at: Int;
  locked_until: Int | null;
  error: string | null;
  created_at: Int;
  sent_at: Int | null;
}

export interface IdempotencyKeysTable {
  merchant_id: string;
  mode: Mode;
  method: string;
  path: string;
  idempotency_key: string;
  request_hash: string;
  /** "in_flight" while the first request runs, then "done". */
  state: string;
  response_status: number | null;
  response_body: string | null;
  created_at: Int;
  expires_at: Int;
}

export interface AppMetaTable {
  key: string;
  value: string;
}

/** A merchant's webhook endpoint for one mode (docs/api.md). */
export interface WebhookEndpointsTable {
  id: string;
  merchant_id: string;
  mode: Mode;
  url: string;
  /** JSON array of subscribed event types. */
  events: string;
  /** The `whsec_` secret, sealed with AES-256-GCM under a key derived from APP_SECRET (lib/security/seal.ts). */
  secret_sealed: string;
  /** The secret before the last roll; it signs too until `previous_secret_expires_at`. */
  previous_secret_sealed: string | null;
  previous_secret_expires_at: Int | null;
  /** "enabled" | "disabled" */
  status: string;
  disabled_reason: string | null;
  disabled_at: Int | null;
  created_at: Int;
  updated_at: Int;
}

/** The outbox: an event, written in the same database transaction as the state change that caused it. */
export interface EventsTable {
  /** `evt_…`; also the `webhook-id` of every delivery of it. */
  id: string;
  merchant_id: string;
  mode: Mode;
  type: string;
  reference: string;
  /** What caused it; unique, so one state change can never emit the same event twice. */
  dedupe_key: string;
  /** The exact body bytes sent: `{event, data, timestamp}`. */
  payload: string;
  created_at: Int;
  delivered_at: Int | null;
}

/** One delivery attempt of an event to an endpoint; a failed one schedules the next. */
export interface WebhookDeliveriesTable {
  id: string;
  event_id: string;
  endpoint_id: string;
  merchant_id: string;
  mode: Mode;
  attempt: number;
  /** "event" (first), "retry", or "redeliver" (asked by the merchant). */
  trigger: string;
  /** "pending" → "sending" → "succeeded" | "failed" */
  status: string;
  due_at: Int;
  /** While "sending": when a relay that died holding it gives it up. */
  locked_until: Int | null;
  url: string | null;
  response_status: number | null;
  response_excerpt: string | null;
  latency_ms: number | null;
  error: string | null;
  created_at: Int;
  finished_at: Int | null;
}

/** A hosted start page a merchant shares (docs/api.md). */
export interface PaymentLinksTable {
  /** `plink_…` */
  id: string;
  merchant_id: string;
  mode: Mode;
  slug: string;
  title: string;
  description: string | null;
  /** Fixed amount, or null when the customer enters it (within min/max when set). */
  amount_minor: Int | null;
  min_amount_minor: Int | null;
  max_amount_minor: Int | null;
  currency: string;
  channels: string;
  redirect_url: string | null;
  /** "customer" | "merchant" */
  fee_bearer: string;
  /** JSON array of form fields (prompts). */
  fields: string;
  active: number;
  expires_at: Int | null;
  /** Most payments the link takes: successful ones plus ones still open. */
  usage_limit: number | null;
  created_at: Int;
  updated_at: Int;
}

/** The sandbox card network's authorisations waiting for a one-time password (test mode only). */
export interface SandboxCardOtpsTable {
  authorization: string;
  expires_at: Int;
}

/** A receipt email to send after a payment succeeded (lib/receipts): the outbox row and its progress. */
export interface ReceiptsTable {
  id: string;
  transaction_id: string;
  /** The charge attempt that paid (what the receipt says it was paid with). */
  attempt_id: string | null;
  /** `customer` (to the payer) or `merchant` (the merchant's copy). */
  kind: string;
  recipient: string;
  /** pending → sending → sent, or failed once its attempts are spent. */
  status: string;
  attempts: number;
  due_at: Int;
  locked_until: Int | null;
  error: string | null;
  created_at: Int;
  sent_at: Int | null;
}

/** A recurring background job's schedule (lib/jobs/runner.ts): which process runs it, and when next. */
export interface JobsTable {
  /** The job's name. */
  id: string;
  /** pending (waiting for `due_at`) → running (claimed until `locked_until`) → pending again. */
  status: string;
  due_at: Int;
  locked_until: Int | null;
  /** Failures in a row (0 after a run that finished). */
  attempts: number;
  /** The last failure's message, kept until a run finishes. */
  error: string | null;
  finished_at: Int | null;
}

export interface Database {
  merchants: MerchantsTable;
  api_keys: ApiKeysTable;
  merchant_sessions: MerchantSessionsTable;
  users: UsersTable;
  memberships: MembershipsTable;
  invitations: InvitationsTable;
  audit_log: AuditLogTable;
  user_tokens: UserTokensTable;
  recovery_codes: RecoveryCodesTable;
  login_challenges: LoginChallengesTable;
  transactions: TransactionsTable;
  idempotency_keys: IdempotencyKeysTable;
  app_meta: AppMetaTable;
  charge_attempts: ChargeAttemptsTable;
  virtual_accounts: VirtualAccountsTable;
  inbound_transfers: InboundTransfersTable;
  refunds: RefundsTable;
  sandbox_card_charges: SandboxCardChargesTable;
  webhook_endpoints: WebhookEndpointsTable;
  events: EventsTable;
  webhook_deliveries: WebhookDeliveriesTable;
  payment_links: PaymentLinksTable;
  sandbox_card_otps: SandboxCardOtpsTable;
  receipts: ReceiptsTable;
  processor_connections: ProcessorConnectionsTable;
  rail_charges: RailChargesTable;
  processor_events: ProcessorEventsTable;
  jobs: JobsTable;
  customers: CustomersTable;
  card_authorizations: CardAuthorizationsTable;
  card_consents: CardConsentsTable;
  sandbox_card_tokens: SandboxCardTokensTable;
  plans: PlansTable;
  subscriptions: SubscriptionsTable;
  invoices: InvoicesTable;
  subscription_emails: SubscriptionEmailsTable;
}

export function toMinor(value: Int): bigint {
  return typeof value === "bigint" ? value : BigInt(value);
}

export function toMillis(value: Int): number {
  return Number(value);
}
