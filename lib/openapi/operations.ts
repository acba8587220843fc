import { z } from "zod";
import {
  BankPaymentResponse,
  CancelResponse,
  CardChargeResponse,
  InboundTransferResponse,
  SandboxAuthorizationResponse,
  SimulateResponse,
  UssdResponse,
  VirtualAccountResponse,
} from "@/lib/channels/responses";
import {
  AddressBody,
  BankPaymentBody,
  BirthdayBody,
  CardBody,
  EmptyBody as ChargeEmptyBody,
  ClockAdvanceBody,
  OtpBody,
  PhoneBody,
  PinBody,
  SandboxAuthorizationBody,
  SandboxTransferBody,
  SimulateBody,
  UssdBody,
} from "@/lib/channels/schemas";
import { CheckoutSandboxAuthorizeBody, CheckoutSandboxTransferBody } from "@/lib/checkout/schemas";
import type { ErrorCode } from "@/lib/core/errors";
import { LinkDisplayResponse, LinkListResponse, LinkResponse } from "@/lib/links/responses";
import { CreateLinkBody, LinksQuery, PayLinkBody, SlugParams, UpdateLinkBody } from "@/lib/links/schemas";
import {
  LoginResponse,
  LogoutResponse,
  PaystackConnectionResponse,
  RollKeyResponse,
  SettingsResponse,
  SignupResponse,
} from "@/lib/merchants/responses";
import {
  LoginBody,
  PaystackConnectBody,
  PaystackModeBody,
  PaystackModeQuery,
  RollKeyBody,
  SettingsBody,
  SignupBody,
  TransactionsQuery,
} from "@/lib/merchants/schemas";
import { HealthResponse, PingResponse } from "@/lib/ops/responses";
import {
  BankListResponse,
  CheckoutRecordResponse,
  SessionResponse,
  TransactionListResponse,
  VerifiedResponse,
} from "@/lib/payments/responses";
import { BanksQuery, InitializeBody, ReferenceParams } from "@/lib/payments/schemas";
import { PaystackWebhookResponse } from "@/lib/rails/paystack/responses";
import { PaystackWebhookBody, PaystackWebhookQuery } from "@/lib/rails/paystack/schemas";
import { RefundListResponse, RefundResponse } from "@/lib/refunds/responses";
import { CreateRefundBody, RefundParams, RefundsQuery, SandboxRefundBody } from "@/lib/refunds/schemas";
import {
  EndpointResponse,
  EndpointWithSecretResponse,
  EventListResponse,
  EventResponse,
  RedeliverResponse,
} from "@/lib/webhooks/responses";
import {
  EventParams,
  EventsQuery,
  KeyEventsQuery,
  RollWebhookSecretBody,
  WebhookBody,
  WebhookQuery,
} from "@/lib/webhooks/schemas";

/** Who may call an operation (docs/api.md): the security scheme of the document. */
export type Credential = "none" | "secret_key" | "access_code" | "session";

/**
 * One operation of the API, as the document describes it. Request schemas are the very objects the route
 * handlers validate with (app/v1/**), response schemas the ones next to the presenters (lib/<area>/responses.ts).
 */
export type Operation = {
  method: "get" | "post" | "put" | "patch";
  /** OpenAPI path, parameters in braces: `/v1/payment/verify/{reference}`. */
  path: string;
  tag: string;
  summary: string;
  description?: string;
  auth: Credential;
  body?: z.ZodType;
  query?: z.ZodObject;
  params?: z.ZodObject;
  status: 200 | 201 | 202;
  response: z.ZodType;
  /** Failure codes particular to this operation; those every operation of its kind can give are added. */
  errors?: ErrorCode[];
  /** An example request body, where there is one. */
  example?: unknown;
  /** The answer is the response schema itself, not wrapped in the success envelope. */
  raw?: true;
  /** The answer's media type when it is not JSON (then `raw`, and `response` describes the text). */
  contentType?: string;
  /** Answers 304 (no body) to an If-None-Match naming its current ETag. */
  notModified?: true;
};

const EmptyBody = z.strictObject({});

/** Failure codes of every charge: its channel or state, and the payment processor behind live mode. */
const CHARGE_ERRORS: ErrorCode[] = [
  "channel_unavailable",
  "email_required",
  "invalid_state",
  "live_not_connected",
  "payment_link_unavailable",
  "processor_error",
];
/** Failure codes of a charge's next step: no charge waits for it, or the processor. */
const STEP_ERRORS: ErrorCode[] = ["invalid_state", "live_not_connected", "processor_error"];

const CARD_STEPS: Array<[string, string, z.ZodType, unknown]> = [
  ["otp", "Send the card's one-time password", OtpBody, { otp: "123456" }],
  ["pin", "Send the card's PIN", PinBody, { pin: "1234" }],
  ["phone", "Send the phone number the card's network asks for", PhoneBody, { phone: "08031234567" }],
  [
    "birthday",
    "Send the date of birth the card's network asks for",
    BirthdayBody,
    { birthday: "1990-12-31" },
  ],
  [
    "address",
    "Send the card's billing address",
    AddressBody,
    { address: "140 N 2nd St", city: "Stroudsburg", state: "PA", zipCode: "18360" },
  ],
];

const BANK_STEPS: Array<[string, string, z.ZodType, unknown]> = [
  ["otp", "Send the one-time password the bank sent", OtpBody, { otp: "123456" }],
  ["birthday", "Send the date of birth the bank asks for", BirthdayBody, { birthday: "1990-12-31" }],
];

export const OPERATIONS: Operation[] = [
  // Payments (merchant's server, secret key)
  {
    method: "post",
    path: "/v1/payment/initialize",
    tag: "Payments",
    summary: "Create a payment and its checkout session",
    description:
      "Creates a pending transaction and answers its session: `checkoutUrl` for the customer, the fee and total per channel. With the same `Idempotency-Key` a retry answers the first result.",
    auth: "secret_key",
    body: InitializeBody,
    status: 201,
    response: SessionResponse,
    errors: ["channel_unavailable", "email_required"],
    example: {
      amount: "5000.00",
      currency: "NGN",
      email: "customer@example.com",
      callbackUrl: "https://shop.example/return",
      locale: "yo",
    },
  },
  {
    method: "get",
    path: "/v1/payment/verify/{reference}",
    tag: "Payments",
    summary: "Verify a payment before fulfilling",
    auth: "secret_key",
    params: ReferenceParams,
    status: 200,
    response: VerifiedResponse,
    errors: ["transaction_not_found"],
  },
  // Checkout (the hosted page, access code)
  {
    method: "get",
    path: "/v1/payment/checkout/verify",
    tag: "Checkout",
    summary: "The checkout's status (the hosted page's poll)",
    auth: "access_code",
    status: 200,
    response: CheckoutRecordResponse,
  },
  {
    method: "get",
    path: "/v1/payment/checkout/banks",
    tag: "Checkout",
    summary: "Banks for bank payment and USSD",
    auth: "access_code",
    query: BanksQuery,
    status: 200,
    response: BankListResponse,
  },
  {
    method: "post",
    path: "/v1/payment/checkout/charge/card",
    tag: "Checkout",
    summary: "Pay by card",
    description:
      "Answers `success`, `failed` with a `reason`, `awaiting_otp`, `awaiting_action` (another step the card's network asks for: a PIN, a phone number, a birthday, a billing address, or its 3-D Secure page to open) or `processing` (the network has not decided yet: ask again with `charge/card/check`). Card data is never stored: only brand, last 4 and expiry. Live payments go through the merchant's payment processor (docs/go-live.md).",
    auth: "access_code",
    body: CardBody,
    status: 200,
    response: CardChargeResponse,
    errors: CHARGE_ERRORS,
    example: { number: "4242424242424242", expiryMonth: 12, expiryYear: 2030, cvv: "123" },
  },
  ...CARD_STEPS.map(
    ([step, summary, body, example]): Operation => ({
      method: "post",
      path: `/v1/payment/checkout/charge/card/${step}`,
      tag: "Checkout",
      summary,
      description:
        "Answers the step the card's network asked for; the answer is the card's next state (success, a decline, or another step).",
      auth: "access_code",
      body,
      status: 200,
      response: CardChargeResponse,
      errors: STEP_ERRORS,
      example,
    }),
  ),
  {
    method: "post",
    path: "/v1/payment/checkout/charge/card/check",
    tag: "Checkout",
    summary: "Ask the card's network where the payment stands",
    description:
      "After the customer comes back from the bank's 3-D Secure page, or while a card payment is `processing`: the network's decision, applied as its answer would have been.",
    auth: "access_code",
    body: ChargeEmptyBody,
    status: 200,
    response: CardChargeResponse,
    errors: STEP_ERRORS,
    example: {},
  },
  {
    method: "post",
    path: "/v1/payment/checkout/charge/bank-transfer",
    tag: "Checkout",
    summary: "Get a one-time account number to transfer to",
    auth: "access_code",
    body: EmptyBody,
    status: 200,
    response: VirtualAccountResponse,
    errors: CHARGE_ERRORS,
    example: {},
  },
  {
    method: "post",
    path: "/v1/payment/checkout/charge/bank-transfer/simulate",
    tag: "Sandbox",
    summary: "Test mode: fund, fail or abandon the bank transfer",
    auth: "access_code",
    body: SimulateBody,
    status: 200,
    response: SimulateResponse,
    errors: [
      "test_mode_only",
      "channel_unavailable",
      "email_required",
      "invalid_state",
      "payment_link_unavailable",
    ],
    example: { scenario: "success" },
  },
  {
    method: "post",
    path: "/v1/payment/checkout/charge/bank-payment",
    tag: "Checkout",
    summary: "Pay from a bank account: approval in the bank's app, or the steps the bank asks for",
    description:
      "On the sandbox the bank's app is asked for an approval. Through a payment processor the customer's `accountNumber` is debited, after what the bank asks for (`action`: an OTP, a date of birth, or its own page to open).",
    auth: "access_code",
    body: BankPaymentBody,
    status: 200,
    response: BankPaymentResponse,
    errors: CHARGE_ERRORS,
    example: { bankCode: "057" },
  },
  ...BANK_STEPS.map(
    ([step, summary, body, example]): Operation => ({
      method: "post",
      path: `/v1/payment/checkout/charge/bank-payment/${step}`,
      tag: "Checkout",
      summary,
      auth: "access_code",
      body,
      status: 200,
      response: BankPaymentResponse,
      errors: STEP_ERRORS,
      example,
    }),
  ),
  {
    method: "post",
    path: "/v1/payment/checkout/charge/bank-payment/check",
    tag: "Checkout",
    summary: "Ask the bank payment's rail where it stands",
    auth: "access_code",
    body: ChargeEmptyBody,
    status: 200,
    response: BankPaymentResponse,
    errors: STEP_ERRORS,
    example: {},
  },
  {
    method: "post",
    path: "/v1/payment/checkout/charge/ussd",
    tag: "Checkout",
    summary: "Get a USSD code to dial",
    auth: "access_code",
    body: UssdBody,
    status: 200,
    response: UssdResponse,
    errors: CHARGE_ERRORS,
    example: { bankCode: "057", phoneNumber: "08031234567" },
  },
  {
    method: "post",
    path: "/v1/payment/checkout/cancel",
    tag: "Checkout",
    summary: "The customer cancels",
    auth: "access_code",
    body: EmptyBody,
    status: 200,
    response: CancelResponse,
    errors: ["invalid_state"],
    example: {},
  },
  {
    method: "post",
    path: "/v1/payment/checkout/sandbox/authorize",
    tag: "Sandbox",
    summary: "Test mode: approve or decline this checkout's bank payment or USSD request",
    auth: "access_code",
    body: CheckoutSandboxAuthorizeBody,
    status: 200,
    response: SandboxAuthorizationResponse,
    errors: ["test_mode_only", "invalid_state"],
    example: { decision: "approve" },
  },
  {
    method: "post",
    path: "/v1/payment/checkout/sandbox/transfer",
    tag: "Sandbox",
    summary: "Test mode: a transfer into this checkout's open account",
    auth: "access_code",
    body: CheckoutSandboxTransferBody,
    status: 200,
    response: InboundTransferResponse,
    errors: ["test_mode_only", "invalid_state"],
    example: {},
  },
  // Sandbox (merchant's server, test secret key)
  {
    method: "post",
    path: "/v1/sandbox/transfers",
    tag: "Sandbox",
    summary: "Test mode: money arrives at a virtual account",
    auth: "secret_key",
    body: SandboxTransferBody,
    status: 200,
    response: InboundTransferResponse,
    errors: ["test_mode_only", "transaction_not_found"],
    example: { accountNumber: "9912345678", amount: "5050.00" },
  },
  {
    method: "post",
    path: "/v1/sandbox/authorizations",
    tag: "Sandbox",
    summary: "Test mode: the customer approves or declines in their bank app or on USSD",
    auth: "secret_key",
    body: SandboxAuthorizationBody,
    status: 200,
    response: SandboxAuthorizationResponse,
    errors: ["test_mode_only", "transaction_not_found", "invalid_state"],
    example: { reference: "PAY_TXN_8Q2M4K7ZP1XW3N5R6T9Y", decision: "approve" },
  },
  {
    method: "post",
    path: "/v1/sandbox/clock/advance",
    tag: "Sandbox",
    summary: "Test mode: move one transaction's clock forward",
    description: "Its deadlines come `seconds` closer; what falls due runs at once. Answers as verify.",
    auth: "secret_key",
    body: ClockAdvanceBody,
    status: 200,
    response: VerifiedResponse,
    errors: ["test_mode_only", "transaction_not_found"],
    example: { reference: "PAY_TXN_8Q2M4K7ZP1XW3N5R6T9Y", seconds: 1800 },
  },
  // Refunds (docs/refunds.md)
  ...(["secret_key", "session"] as const).flatMap((auth): Operation[] => {
    const base = auth === "secret_key" ? "/v1/refunds" : "/v1/merchants/refunds";
    const who = auth === "secret_key" ? "" : " (the console's)";
    return [
      {
        method: "post",
        path: base,
        tag: "Refunds",
        summary: `Refund all or part of a paid payment${who}`,
        description:
          "Without `amount`, everything still refundable. Refunds of one payment never exceed what it collected, however many are asked at once.",
        auth,
        body: CreateRefundBody,
        status: 201,
        response: RefundResponse,
        errors: ["transaction_not_found", "invalid_state", "refund_exceeds_available"],
        example: { reference: "PAY_TXN_8Q2M4K7ZP1XW3N5R6T9Y", amount: "2500.00", reason: "Returned item" },
      },
      {
        method: "get",
        path: base,
        tag: "Refunds",
        summary: `Refunds, newest first${who}`,
        auth,
        query: RefundsQuery,
        status: 200,
        response: RefundListResponse,
      },
      {
        method: "get",
        path: `${base}/{id}`,
        tag: "Refunds",
        summary: `One refund${who}`,
        auth,
        params: RefundParams,
        status: 200,
        response: RefundResponse,
        errors: ["refund_not_found"],
      },
    ];
  }),
  {
    method: "post",
    path: "/v1/sandbox/refunds/{id}",
    tag: "Sandbox",
    summary: "Test mode: the sandbox bank settles a pending refund now",
    auth: "secret_key",
    params: RefundParams,
    body: SandboxRefundBody,
    status: 200,
    response: RefundResponse,
    errors: ["test_mode_only", "refund_not_found", "invalid_state"],
    example: { outcome: "processed" },
  },
  // Events (secret key)
  {
    method: "get",
    path: "/v1/events",
    tag: "Events",
    summary: "Events of the key's mode, with their delivery attempts",
    auth: "secret_key",
    query: KeyEventsQuery,
    status: 200,
    response: EventListResponse,
  },
  {
    method: "get",
    path: "/v1/events/{id}",
    tag: "Events",
    summary: "One event, with its delivery attempts",
    auth: "secret_key",
    params: EventParams,
    status: 200,
    response: EventResponse,
    errors: ["event_not_found"],
  },
  // Merchants (session token)
  {
    method: "post",
    path: "/v1/merchants/auth/signup",
    tag: "Merchants",
    summary: "Create a merchant",
    description: "Answers its two secret keys (shown this once) and a session token.",
    auth: "none",
    body: SignupBody,
    status: 201,
    response: SignupResponse,
    errors: ["email_taken"],
    example: {
      businessName: "Ada Stores",
      email: "ada@example.com",
      password: "correct horse battery staple",
    },
  },
  {
    method: "post",
    path: "/v1/merchants/auth/login",
    tag: "Merchants",
    summary: "Sign in: email and password for a session token",
    auth: "none",
    body: LoginBody,
    status: 200,
    response: LoginResponse,
    errors: ["invalid_credentials"],
    example: { email: "ada@example.com", password: "correct horse battery staple" },
  },
  {
    method: "post",
    path: "/v1/merchants/auth/logout",
    tag: "Merchants",
    summary: "End this session",
    auth: "session",
    status: 200,
    response: LogoutResponse,
  },
  {
    method: "post",
    path: "/v1/merchants/keys/roll",
    tag: "Merchants",
    summary: "Replace the secret key of one mode",
    auth: "session",
    body: RollKeyBody,
    status: 200,
    response: RollKeyResponse,
    example: { mode: "test" },
  },
  {
    method: "get",
    path: "/v1/merchants/settings",
    tag: "Merchants",
    summary: "Channels, fees, brand",
    auth: "session",
    status: 200,
    response: SettingsResponse,
  },
  {
    method: "put",
    path: "/v1/merchants/settings",
    tag: "Merchants",
    summary:
      "Change channels, who bears fees, brand colour and logo, the origins that may embed the checkout",
    auth: "session",
    body: SettingsBody,
    status: 200,
    response: SettingsResponse,
    example: {
      channels: ["card", "bank_transfer"],
      merchantBearsCost: false,
      brandColor: "#0f766e",
      embedOrigins: ["https://shop.example"],
    },
  },
  {
    method: "get",
    path: "/v1/merchants/transactions",
    tag: "Merchants",
    summary: "Transactions of this deployment's mode, newest first",
    auth: "session",
    query: TransactionsQuery,
    status: 200,
    response: TransactionListResponse,
  },
  {
    method: "get",
    path: "/v1/merchants/webhook",
    tag: "Webhooks",
    summary: "The webhook endpoint of a mode (null when none)",
    auth: "session",
    query: WebhookQuery,
    status: 200,
    response: EndpointResponse.nullable(),
  },
  {
    method: "put",
    path: "/v1/merchants/webhook",
    tag: "Webhooks",
    summary: "Set the webhook endpoint of a mode; answers its signing secret",
    auth: "session",
    body: WebhookBody,
    status: 200,
    response: EndpointWithSecretResponse,
    example: { mode: "test", url: "https://shop.example/webhooks/paygate" },
  },
  {
    method: "post",
    path: "/v1/merchants/webhook/roll-secret",
    tag: "Webhooks",
    summary: "A new signing secret; the old one signs too for 24 hours",
    auth: "session",
    body: RollWebhookSecretBody,
    status: 200,
    response: EndpointWithSecretResponse,
    errors: ["invalid_state"],
    example: { mode: "test" },
  },
  {
    method: "get",
    path: "/v1/merchants/events",
    tag: "Webhooks",
    summary: "Events with every delivery attempt",
    auth: "session",
    query: EventsQuery,
    status: 200,
    response: EventListResponse,
  },
  {
    method: "post",
    path: "/v1/merchants/events/{id}/redeliver",
    tag: "Webhooks",
    summary: "Send an event again now, with the same webhook-id",
    auth: "session",
    params: EventParams,
    status: 202,
    response: RedeliverResponse,
    errors: ["event_not_found", "invalid_state"],
  },
  {
    method: "get",
    path: "/v1/merchants/paystack",
    tag: "Merchants",
    summary: "The merchant's own Paystack account of a mode (never its key)",
    auth: "session",
    query: PaystackModeQuery,
    status: 200,
    response: PaystackConnectionResponse,
  },
  {
    method: "put",
    path: "/v1/merchants/paystack",
    tag: "Merchants",
    summary: "Connect a Paystack account, or replace its key: checked against Paystack once, kept sealed",
    description:
      "The key must be of the mode (`sk_live_…` for live) and is checked with Paystack (GET /balance) before it is kept. It is never shown again: the answer names its last four characters and the two addresses to set in Paystack's dashboard.",
    auth: "session",
    body: PaystackConnectBody,
    status: 200,
    response: PaystackConnectionResponse,
    errors: ["processor_error"],
    example: { mode: "live", secretKey: "sk_live_0123456789abcdef0123456789abcdef01234567" },
  },
  {
    method: "post",
    path: "/v1/merchants/paystack/disconnect",
    tag: "Merchants",
    summary: "Forget the merchant's Paystack key of a mode",
    auth: "session",
    body: PaystackModeBody,
    status: 200,
    response: PaystackConnectionResponse,
    example: { mode: "live" },
  },
  // Processors' webhooks
  {
    method: "post",
    path: "/v1/rails/paystack/webhook",
    tag: "Processors",
    summary: "Paystack's events: charges, transfers and refunds, signed with the account's secret key",
    description:
      "Set as the Webhook URL in Paystack's dashboard (docs/go-live.md). `x-paystack-signature` must be the HMAC-SHA512 of the raw body with the Paystack key of the account the event is about; unsigned, forged and stale events are refused, an event seen before is answered without being acted on again.",
    auth: "none",
    query: PaystackWebhookQuery,
    body: PaystackWebhookBody,
    status: 200,
    response: PaystackWebhookResponse,
    errors: ["invalid_signature", "stale_event", "address_not_allowed"],
    example: {
      event: "charge.success",
      data: {
        id: 302961,
        domain: "live",
        status: "success",
        reference: "PAY-TXN-8Q2M4K7ZP1XW3N5R6T9Y.3f2c0d9e8b7a41c6a5d4e3f2a1b0c9d8",
        amount: 505000,
        currency: "NGN",
        channel: "card",
        paid_at: "2026-11-26T10:15:00.000Z",
      },
    },
  },
  // Payment links
  {
    method: "post",
    path: "/v1/merchants/payment-links",
    tag: "Payment links",
    summary: "Create a payment link",
    auth: "session",
    body: CreateLinkBody,
    status: 201,
    response: LinkResponse,
    errors: ["channel_unavailable"],
    example: { title: "Summer tote", amount: "18500.00", currency: "NGN" },
  },
  {
    method: "get",
    path: "/v1/merchants/payment-links",
    tag: "Payment links",
    summary: "The merchant's payment links, newest first",
    auth: "session",
    query: LinksQuery,
    status: 200,
    response: LinkListResponse,
  },
  {
    method: "get",
    path: "/v1/merchants/payment-links/{slug}",
    tag: "Payment links",
    summary: "One payment link",
    auth: "session",
    params: SlugParams,
    status: 200,
    response: LinkResponse,
    errors: ["payment_link_not_found"],
  },
  {
    method: "patch",
    path: "/v1/merchants/payment-links/{slug}",
    tag: "Payment links",
    summary: "Change a payment link (deactivate it, say)",
    auth: "session",
    params: SlugParams,
    body: UpdateLinkBody,
    status: 200,
    response: LinkResponse,
    errors: ["payment_link_not_found", "channel_unavailable"],
    example: { active: false },
  },
  {
    method: "get",
    path: "/v1/merchants/payment-links/{slug}/display",
    tag: "Payment links",
    summary: "Public: what the link's start page shows",
    auth: "none",
    params: SlugParams,
    status: 200,
    response: LinkDisplayResponse,
    errors: ["payment_link_not_found"],
  },
  {
    method: "post",
    path: "/v1/merchants/payment-links/{slug}/pay",
    tag: "Payment links",
    summary: "Public: start paying through a link",
    auth: "none",
    params: SlugParams,
    body: PayLinkBody,
    status: 201,
    response: SessionResponse,
    errors: [
      "payment_link_not_found",
      "payment_link_unavailable",
      "rate_limited",
      "channel_unavailable",
      "email_required",
    ],
    example: { email: "customer@example.com" },
  },
  // Operations
  {
    method: "get",
    path: "/v1/ping",
    tag: "Service",
    summary: "Liveness: a constant answer",
    auth: "none",
    status: 200,
    response: PingResponse,
  },
  {
    method: "get",
    path: "/v1/openapi.json",
    tag: "Service",
    summary: "This document",
    auth: "none",
    status: 200,
    response: z.looseObject({ openapi: z.literal("3.1.0") }),
    raw: true,
  },
  {
    method: "get",
    path: "/v1/inline.js",
    tag: "Service",
    summary:
      "The embedded checkout's script for a <script> tag: window.Paygate.open(accessCode, {callbacks})",
    description:
      "docs/guides/embed-the-checkout.md. Cacheable (ETag), its version in its first line; the checkout opens only over pages whose origin the merchant lists in `embedOrigins` (PUT /v1/merchants/settings).",
    auth: "none",
    status: 200,
    response: z.string(),
    raw: true,
    contentType: "text/javascript",
    notModified: true,
  },
  {
    method: "get",
    path: "/v1/inline.mjs",
    tag: "Service",
    summary: "The same script as an ES module: import { open } from …/v1/inline.mjs",
    auth: "none",
    status: 200,
    response: z.string(),
    raw: true,
    contentType: "text/javascript",
    notModified: true,
  },
  {
    method: "get",
    path: "/v1/health",
    tag: "Service",
    summary: "Readiness: 200 when this instance reaches its database, 503 when not or while it shuts down",
    auth: "none",
    status: 200,
    response: HealthResponse,
  },
];
