import type { Selectable } from "kysely";
import { presentInvoice, presentPlan, presentSubscription } from "@/lib/billing/present";
import { presentAuthorizationCharge } from "@/lib/channels/present-authorization-charge";
import { presentVirtualAccount } from "@/lib/channels/present-virtual-account";
import type { ErrorCode } from "@/lib/core/errors";
import { presentAuthorization, presentCustomer } from "@/lib/customers/present";
import type {
  CardAuthorizationsTable,
  CustomersTable,
  EventsTable,
  MerchantsTable,
  PaymentLinksTable,
  RefundsTable,
  TransactionsTable,
  VirtualAccountsTable,
  WebhookDeliveriesTable,
  WebhookEndpointsTable,
} from "@/lib/db/schema";
import { presentDisplay, presentLink } from "@/lib/links/present";
import { presentMerchant, presentSettings } from "@/lib/merchants/present";
import { presentCheckoutRecord, presentSession, presentVerified } from "@/lib/payments/present";
import { presentRefund } from "@/lib/refunds/present";
import { presentEndpoint, presentEvent } from "@/lib/webhooks/present";

/**
 * The document's examples of answers. Success answers are what the presenters make of representative rows
 * (the specimens below, also used by lib/openapi/responses.test.ts), so an example cannot show a field the
 * service does not send; the few answers no presenter builds are written out. Failure answers get one example
 * per error code, with a message of the kind the service writes.
 */

const CREATED = Date.UTC(2026, 10, 24, 9, 30, 12);
const PAID = CREATED + 94_000;
const REFERENCE = "PAY_TXN_8Q2M4K7ZP1XW3N5R6T9Y";
/**
 * The host the examples' checkout and link addresses are under: fixed, so the document (and the SDK generated
 * from it) is the same whatever deployment builds or serves it; the document's `servers` name the deployment.
 */
const EXAMPLE_BASE = "https://pay.example.com";

/** Representative rows of the tables the presenters read. */
export const SPECIMENS = {
  merchant: {
    id: "mrc_7Hn2Qk9Xp4Lw8Zt3Vb6Rm1Yd",
    business_name: "Ada Stores",
    email: "ada@example.com",
    password_hash: "scrypt$…",
    channels: '["card","bank_transfer","bank_payment","ussd"]',
    merchant_bears_cost: 0,
    brand_color: "#0f766e",
    logo_url: null,
    fee_schedule: null,
    embed_origins: '["https://shop.example"]',
    dunning_days: null,
    require_two_factor: 0,
    created_at: CREATED - 86_400_000,
    updated_at: CREATED - 86_400_000,
  } satisfies Selectable<MerchantsTable>,
  /** A card payment of 5000.00 NGN, paid, 2000.00 of it refunded. */
  paid: {
    id: "txn_5Tq8Lm3Xk7Nw2Pz9Rb4Vc6Yh",
    reference: REFERENCE,
    merchant_id: "mrc_7Hn2Qk9Xp4Lw8Zt3Vb6Rm1Yd",
    mode: "test",
    access_code: "Xk3Pq9Lm2Nb7Vc4Zr8Ts",
    access_expires_at: CREATED + 86_400_000,
    amount_minor: 500_000n,
    currency: "NGN",
    email: "customer@example.com",
    customer_name: "Chioma Okafor",
    callback_url: "https://shop.example/return",
    description: "Order 1042",
    metadata: '{"orderId":"1042"}',
    distribution: null,
    merchant_bears_cost: 0,
    channels: '["card","bank_transfer","bank_payment","ussd"]',
    card_fee_minor: 17_500n,
    transfer_fee_minor: 5_000n,
    status: "success",
    channel: "card",
    fees_minor: 17_500n,
    total_minor: 517_500n,
    amount_settled_minor: 500_000n,
    paid_at: PAID,
    created_at: CREATED,
    updated_at: PAID,
    mismatch_expected_minor: null,
    mismatch_received_minor: null,
    payment_link_id: null,
    amount_refunded_minor: 200_000n,
    refund_credit_minor: 0n,
    locale: null,
    idempotency_ref: null,
    idempotency_request_hash: null,
    link_place_until: null,
    link_holder: null,
    customer_id: "CUS_4GM7QX2LP9ZR8TN3VB6K",
    save_card: "optional",
    authorization_id: "AUTH_8Q2M4K7ZP1XW3N5R6T9Y",
    invoice_id: null,
    subscription_id: null,
    plan_id: null,
    merchant_initiated: 0,
    link_payment_started_at: null,
  } satisfies Selectable<TransactionsTable>,
  /** The account a bank transfer waits on, 30 minutes. */
  virtualAccount: {
    id: "va_2Wc7Nq4Lx9Kp3Zm8Tb5Rh6Yd",
    transaction_id: "txn_5Tq8Lm3Xk7Nw2Pz9Rb4Vc6Yh",
    attempt_id: "att_9Lp3Xw7Qk2Nm8Zt4Vb6Rc1Yh",
    merchant_id: "mrc_7Hn2Qk9Xp4Lw8Zt3Vb6Rm1Yd",
    mode: "test",
    account_number: "9912345678",
    bank_name: "Paygate Sandbox Bank",
    account_name: "Paygate / Ada Stores",
    expected_minor: 505_000n,
    currency: "NGN",
    expires_at: CREATED + 60_000 + 1_800_000,
    created_at: CREATED + 60_000,
    rail: null,
  } satisfies Selectable<VirtualAccountsTable>,
  refund: {
    id: "rfd_4Gm7Qx2Lp9Zr8Tn3Vb6Ky1Wd",
    transaction_id: "txn_5Tq8Lm3Xk7Nw2Pz9Rb4Vc6Yh",
    merchant_id: "mrc_7Hn2Qk9Xp4Lw8Zt3Vb6Rm1Yd",
    mode: "test",
    reference: REFERENCE,
    type: "merchant",
    reason: "Returned item",
    amount_minor: 200_000n,
    currency: "NGN",
    status: "processed",
    source: null,
    source_id: null,
    rail: "sandbox",
    rail_reference: "sbx_rfd_8Kp2Qw",
    charge_reference: null,
    failure_reason: null,
    due_at: PAID + 3_600_000,
    created_at: PAID + 3_600_000,
    processed_at: PAID + 3_605_000,
    updated_at: PAID + 3_605_000,
  } satisfies Selectable<RefundsTable>,
  link: {
    id: "lnk_6Vr3Km8Xq2Lp7Zn4Tb9Wc5Yd",
    merchant_id: "mrc_7Hn2Qk9Xp4Lw8Zt3Vb6Rm1Yd",
    mode: "test",
    slug: "summer-tote",
    title: "Summer tote",
    description: "Hand-woven, one size.",
    amount_minor: 1_850_000n,
    min_amount_minor: null,
    max_amount_minor: null,
    currency: "NGN",
    channels: '["card","bank_transfer"]',
    redirect_url: "https://shop.example/thanks",
    fee_bearer: "customer",
    fields: '[{"name":"size","label":"Size","type":"select","required":true,"options":["S","M","L"]}]',
    active: 1,
    expires_at: null,
    usage_limit: 100,
    created_at: CREATED,
    updated_at: CREATED,
  } satisfies Selectable<PaymentLinksTable>,
  customer: {
    id: "CUS_4GM7QX2LP9ZR8TN3VB6K",
    merchant_id: "mrc_7Hn2Qk9Xp4Lw8Zt3Vb6Rm1Yd",
    mode: "test",
    email: "customer@example.com",
    email_key: "customer@example.com",
    name: "Chioma Okafor",
    phone: "+2348031234567",
    metadata: null,
    created_at: CREATED - 30 * 86_400_000,
    updated_at: CREATED - 30 * 86_400_000,
  } satisfies Selectable<CustomersTable>,
  /** The card the paid specimen saved, with the customer's consent. */
  authorization: {
    id: "AUTH_8Q2M4K7ZP1XW3N5R6T9Y",
    merchant_id: "mrc_7Hn2Qk9Xp4Lw8Zt3Vb6Rm1Yd",
    mode: "test",
    customer_id: "CUS_4GM7QX2LP9ZR8TN3VB6K",
    fingerprint: "9c1e…",
    active_fingerprint: "9c1e…",
    rail: "sandbox",
    key_source: null,
    token_sealed: "sealed…",
    brand: "visa",
    last4: "4242",
    exp_month: 12,
    exp_year: 2030,
    bank: "Paygate Sandbox Bank",
    status: "active",
    clock_offset_ms: 0,
    created_at: PAID,
    updated_at: PAID,
    last_used_at: null,
    deactivated_at: null,
  } satisfies Selectable<CardAuthorizationsTable>,
  endpoint: {
    id: "whe_3Qn8Lk2Xp7Wm4Zt9Vb5Rc6Yd",
    merchant_id: "mrc_7Hn2Qk9Xp4Lw8Zt3Vb6Rm1Yd",
    mode: "test",
    url: "https://shop.example/webhooks/paygate",
    events: JSON.stringify([
      "payment.completed",
      "payment.failed",
      "checkout.awaiting_transfer",
      "checkout.completed",
      "checkout.amount_mismatch",
      "refund.processed",
      "refund.failed",
    ]),
    secret_sealed: "sealed…",
    previous_secret_sealed: null,
    previous_secret_expires_at: null,
    status: "enabled",
    disabled_reason: null,
    disabled_at: null,
    created_at: CREATED - 3_600_000,
    updated_at: CREATED - 3_600_000,
  } satisfies Selectable<WebhookEndpointsTable>,
} as const;

/** payment.completed for the paid specimen: delivered on the second attempt, after a 500. */
export function specimenEvent() {
  const payload = {
    event: "payment.completed",
    data: presentVerified(SPECIMENS.paid, SPECIMENS.authorization),
    timestamp: new Date(PAID).toISOString(),
  };
  const event: Selectable<EventsTable> = {
    id: "evt_3JcKp0Wq8XvN2mTz6RbL4hYd",
    merchant_id: SPECIMENS.merchant.id,
    mode: "test",
    type: "payment.completed",
    reference: REFERENCE,
    dedupe_key: `payment.completed:${REFERENCE}`,
    payload: JSON.stringify(payload),
    created_at: PAID,
    delivered_at: PAID + 5_400,
  };
  const attempt = (n: number, fields: Partial<Selectable<WebhookDeliveriesTable>>) => ({
    id: `dlv_${n}`,
    event_id: event.id,
    endpoint_id: SPECIMENS.endpoint.id,
    merchant_id: SPECIMENS.merchant.id,
    mode: "test" as const,
    attempt: n,
    trigger: n === 1 ? "event" : "retry",
    status: "succeeded",
    due_at: PAID,
    locked_until: null,
    url: SPECIMENS.endpoint.url,
    response_status: 200,
    response_excerpt: "ok",
    latency_ms: 84,
    error: null,
    created_at: PAID,
    finished_at: PAID + 84,
    ...fields,
  });
  return presentEvent(event, [
    attempt(1, {
      status: "failed",
      response_status: 500,
      response_excerpt: "Internal Server Error",
      error: "HTTP 500",
      latency_ms: 120,
      finished_at: PAID + 120,
    }),
    attempt(2, { due_at: PAID + 5_120, finished_at: PAID + 5_400 }),
  ]);
}

/** A monthly plan, a subscription to it, paid once, and its invoices. */
const PLAN = {
  id: "PLN_5K2M9Q4ZP1XW3N7R6T8Y",
  merchant_id: "mrc_7Hn2Qk9Xp4Lw8Zt3Vb6Rm1Yd",
  mode: "test" as const,
  name: "Gold",
  description: "Everything, every month",
  amount_minor: 500_000n,
  currency: "NGN",
  interval: "monthly",
  trial_days: 0,
  invoice_limit: null,
  active: 1,
  created_at: CREATED - 40 * 86_400_000,
  updated_at: CREATED - 40 * 86_400_000,
};
const SUBSCRIPTION = {
  id: "SUB_7T3N5R6Y9Q2M4K8ZP1XW",
  merchant_id: "mrc_7Hn2Qk9Xp4Lw8Zt3Vb6Rm1Yd",
  mode: "test" as const,
  customer_id: "CUS_4GM7QX2LP9ZR8TN3VB6K",
  plan_id: PLAN.id,
  authorization_id: "AUTH_8Q2M4K7ZP1XW3N5R6T9Y",
  status: "active",
  start_at: Date.UTC(2026, 10, 24, 9, 30),
  trial_end_at: null,
  current_period_start: Date.UTC(2026, 10, 24, 9, 30),
  current_period_end: Date.UTC(2026, 11, 24, 9, 30),
  cancel_at_period_end: 0,
  invoices_paid: 1,
  clock_offset_ms: 0,
  created_at: Date.UTC(2026, 10, 24, 9, 30),
  updated_at: Date.UTC(2026, 10, 24, 9, 30),
  cancelled_at: null,
  cancel_reason: null,
};
const INVOICE_PAID = {
  id: "INV_3N5R6T9Y8Q2M4K7ZP1XW",
  subscription_id: SUBSCRIPTION.id,
  merchant_id: SUBSCRIPTION.merchant_id,
  mode: "test" as const,
  period_index: 0,
  period_start: Date.UTC(2026, 10, 24, 9, 30),
  period_end: Date.UTC(2026, 11, 24, 9, 30),
  amount_minor: 500_000n,
  currency: "NGN",
  status: "paid",
  due_at: Date.UTC(2026, 10, 24, 9, 30),
  locked_until: null,
  attempts: 1,
  reference: "PAY_TXN_INV3N5R6T9Y8Q2M4K7ZP1XWN1",
  created_at: Date.UTC(2026, 10, 24, 9, 30),
  updated_at: Date.UTC(2026, 10, 24, 9, 30),
  paid_at: Date.UTC(2026, 10, 24, 9, 30),
};
const INVOICE_NEXT = {
  ...INVOICE_PAID,
  id: "INV_9Y8Q2M4K7ZP1XW3N5R6T",
  period_index: 1,
  period_start: Date.UTC(2026, 11, 24, 9, 30),
  period_end: Date.UTC(2027, 0, 24, 9, 30),
  status: "pending",
  due_at: Date.UTC(2026, 11, 24, 9, 30),
  attempts: 0,
  reference: null,
  paid_at: null,
};

/** The answer's `data` of each operation, keyed `METHOD /path`. */
export function successExamples(): Record<string, unknown> {
  const { merchant, paid, refund, link, endpoint, customer, authorization: saved } = SPECIMENS;
  const pending = {
    ...paid,
    status: "pending",
    channel: null,
    fees_minor: null,
    total_minor: null,
    amount_settled_minor: null,
    paid_at: null,
    amount_refunded_minor: 0n,
  };
  const session = presentSession(pending, EXAMPLE_BASE);
  const verified = presentVerified(paid, saved);
  const customerWithCard = presentCustomer(customer, [saved]);
  const plan = presentPlan(PLAN);
  const subscription = presentSubscription({
    row: SUBSCRIPTION,
    plan: PLAN,
    customer,
    authorization: saved,
    due: INVOICE_NEXT,
  });
  const customers = { customers: [customerWithCard], nextCursor: null };
  const deactivated = presentAuthorization({ ...saved, status: "deactivated", active_fingerprint: null });
  const charged = presentAuthorizationCharge(
    {
      ...paid,
      reference: "PAY_TXN_INV2026001",
      save_card: null,
      merchant_initiated: 1,
      metadata: null,
      amount_refunded_minor: 0n,
    },
    { status: "success", failure_reason: null },
    { ...saved, last_used_at: PAID },
  );
  const refunds = { refunds: [presentRefund(refund)], nextCursor: null };
  const event = specimenEvent();
  const events = { events: [event], nextCursor: null };
  const card = { brand: "visa", last4: "4242" };
  const withSecret = { ...presentEndpoint(endpoint), secret: "whsec_C2FVsBQIhrscChlQIMV+b5sSYspob7oD" };
  const signedIn = {
    merchant: presentMerchant(merchant),
    accessToken: "mst_9Xk2Lp7Qw3Nm8Zt4Vb6Rc1Yh5Jd0Fg",
    expiresAt: new Date(CREATED + 7 * 86_400_000).toISOString(),
  };
  const transfer = {
    outcome: "credited",
    reference: REFERENCE,
    sessionId: "sbx_7Qk2Lp9Xw3Nm8Zt4Vb6Rc1Yh",
    replayed: false,
    amount: "5050.00",
    expected: "5050.00",
  };
  const authorization = {
    reference: REFERENCE,
    decision: "approve",
    channel: "bank_payment",
    status: "success",
  };
  const paystack = {
    processor: "paystack",
    mode: "live",
    connected: true,
    keyHint: "sk_live_…9f3a",
    connectedAt: new Date(CREATED).toISOString(),
    updatedAt: new Date(CREATED).toISOString(),
    webhookUrl: `${EXAMPLE_BASE}/v1/rails/paystack/webhook?connection=psc_4Gm7Qx2Lp9Zr8Tn3Vb6Ky1Wd`,
    callbackUrl: `${EXAMPLE_BASE}/pay/return/paystack`,
    deploymentDefault: false,
  };
  return {
    "POST /v1/payment/initialize": session,
    "GET /v1/payment/verify/{reference}": verified,
    "GET /v1/payment/checkout/verify": presentCheckoutRecord(paid),
    "GET /v1/payment/checkout/banks": [
      { code: "044", name: "Access Bank" },
      { code: "058", name: "GTBank" },
      { code: "057", name: "Zenith Bank" },
    ],
    "POST /v1/payment/checkout/charge/card": {
      reference: REFERENCE,
      channel: "card",
      card,
      status: "success",
    },
    "POST /v1/payment/checkout/charge/card/otp": {
      reference: REFERENCE,
      channel: "card",
      card,
      status: "failed",
      reason: "invalid_otp",
      message: "The one-time password was not correct.",
    },
    "POST /v1/payment/checkout/charge/card/pin": {
      reference: REFERENCE,
      channel: "card",
      card,
      status: "awaiting_otp",
      message: "Enter the one-time password sent to 080****5678.",
    },
    "POST /v1/payment/checkout/charge/card/phone": {
      reference: REFERENCE,
      channel: "card",
      card,
      status: "awaiting_otp",
      message: "Enter the one-time password sent to 080****5678.",
    },
    "POST /v1/payment/checkout/charge/card/birthday": {
      reference: REFERENCE,
      channel: "card",
      card,
      status: "success",
    },
    "POST /v1/payment/checkout/charge/card/address": {
      reference: REFERENCE,
      channel: "card",
      card,
      status: "success",
    },
    "POST /v1/payment/checkout/charge/card/check": {
      reference: REFERENCE,
      channel: "card",
      card,
      status: "awaiting_action",
      action: {
        step: "redirect",
        message: "Continue on your bank's page to authorise the payment.",
        url: "https://standard.paystack.co/3ds/abc123",
      },
    },
    "POST /v1/payment/checkout/charge/bank-transfer": presentVirtualAccount(
      { ...pending, status: "awaiting_transfer" },
      SPECIMENS.virtualAccount,
      CREATED + 60_000,
    ),
    "POST /v1/payment/checkout/charge/bank-transfer/simulate": {
      reference: REFERENCE,
      scenario: "success",
      status: "success",
      outcome: "credited",
    },
    "POST /v1/payment/checkout/charge/bank-payment": {
      status: "awaiting_bank_authorization",
      reference: REFERENCE,
      bankCode: "057",
      bankName: "Zenith Bank",
      message: "Approve the payment in your Zenith Bank app.",
    },
    "POST /v1/payment/checkout/charge/bank-payment/otp": {
      status: "success",
      reference: REFERENCE,
      bankCode: "057",
      bankName: "Zenith Bank",
    },
    "POST /v1/payment/checkout/charge/bank-payment/birthday": {
      status: "awaiting_bank_authorization",
      reference: REFERENCE,
      bankCode: "057",
      bankName: "Zenith Bank",
      message: "Enter the one-time password your bank sent you.",
      action: { step: "otp", message: "Enter the one-time password your bank sent you." },
    },
    "POST /v1/payment/checkout/charge/bank-payment/phone": {
      status: "awaiting_bank_authorization",
      reference: REFERENCE,
      bankCode: "057",
      bankName: "Zenith Bank",
      message: "Enter the one-time password your bank sent you.",
      action: { step: "otp", message: "Enter the one-time password your bank sent you." },
    },
    "POST /v1/payment/checkout/charge/bank-payment/pin": {
      status: "success",
      reference: REFERENCE,
      bankCode: "057",
      bankName: "Zenith Bank",
    },
    "POST /v1/payment/checkout/charge/bank-payment/check": {
      status: "failed",
      reference: REFERENCE,
      bankCode: "057",
      bankName: "Zenith Bank",
      reason: "declined_by_bank",
      message: "The customer declined the payment.",
    },
    "POST /v1/rails/paystack/webhook": {
      received: true,
      event: "charge.success",
      duplicate: false,
      outcome: "credited",
    },
    "GET /v1/merchants/paystack": paystack,
    "PUT /v1/merchants/paystack": paystack,
    "POST /v1/merchants/paystack/disconnect": {
      ...paystack,
      connected: false,
      keyHint: null,
      connectedAt: null,
      updatedAt: null,
      webhookUrl: `${EXAMPLE_BASE}/v1/rails/paystack/webhook`,
    },
    "POST /v1/payment/checkout/charge/ussd": {
      status: "awaiting_ussd",
      reference: REFERENCE,
      ussdCode: "*966*000*123456#",
      dialUrl: "tel:*966*000*123456%23",
      bankCode: "057",
      bankName: "Zenith Bank",
      message: "Dial *966*000*123456# on 08031234567 and follow the prompts.",
    },
    "POST /v1/payment/checkout/cancel": { reference: REFERENCE, status: "abandoned" },
    "POST /v1/payment/checkout/sandbox/authorize": authorization,
    "POST /v1/payment/checkout/sandbox/transfer": transfer,
    "POST /v1/sandbox/transfers": transfer,
    "POST /v1/sandbox/authorizations": authorization,
    "POST /v1/sandbox/clock/advance": presentVerified({ ...pending, status: "abandoned" }),
    "POST /v1/refunds": presentRefund({ ...refund, status: "pending", processed_at: null }),
    "GET /v1/refunds": refunds,
    "GET /v1/refunds/{id}": presentRefund(refund),
    "POST /v1/merchants/refunds": presentRefund({ ...refund, status: "pending", processed_at: null }),
    "GET /v1/merchants/refunds": refunds,
    "GET /v1/merchants/refunds/{id}": presentRefund(refund),
    "POST /v1/sandbox/refunds/{id}": presentRefund(refund),
    "GET /v1/events": events,
    "GET /v1/events/{id}": event,
    "POST /v1/merchants/auth/signup": {
      ...signedIn,
      keys: {
        test: { secretKey: "sk_test_4Lq9Xw2Kp7Nm3Zt8Vb6Rc1Yh5Jd0FgT" },
        live: { secretKey: "sk_live_8Rc2Nm7Qk3Xw9Lp4Zt6Vb1Yh5Jd0FgK" },
      },
    },
    "POST /v1/merchants/auth/login": { ...signedIn, role: "owner" },
    "POST /v1/merchants/auth/login/2fa": { ...signedIn, role: "owner" },
    "POST /v1/merchants/auth/2fa/setup": {
      secret: "O5NZUGHSGGPHMNT7YMQWPJEOWOA3B2LE",
      otpauthUrl:
        "otpauth://totp/Paygate:ada%40example.com?secret=O5NZUGHSGGPHMNT7YMQWPJEOWOA3B2LE&issuer=Paygate",
      qrCode: "data:image/png;base64,iVBORw0KGgo=",
    },
    "POST /v1/merchants/auth/2fa/enable": {
      recoveryCodes: [
        "7KQ2M-X9PZR",
        "H3VBN-8WT4C",
        "Q6ZRJ-2MXK9",
        "B8TWP-5NH3V",
        "M2XKQ-7RZ6J",
        "W9CNB-4PT8H",
        "R5JZM-3QX2K",
        "T7HVW-9BN4P",
        "K4PXR-6ZM2Q",
        "N3BTJ-8VW5C",
      ],
    },
    "PUT /v1/merchants/two-factor-requirement": { required: true },
    "POST /v1/merchants/auth/switch": { ...signedIn, role: "support" },
    "GET /v1/merchants/memberships": [
      { merchantId: merchant.id, businessName: merchant.business_name, role: "owner" },
      { merchantId: "7d1e2c3b-9a8f-4e6d-b5c4-3a2b1c0d9e8f", businessName: "Kola Foods", role: "support" },
    ],
    "GET /v1/merchants/team": [
      {
        id: TEAM_MEMBER_ID,
        email: "ada@example.com",
        role: "owner",
        status: "active",
        lastSignInAt: new Date(CREATED).toISOString(),
        expiresAt: null,
      },
      {
        id: TEAM_INVITATION_ID,
        email: "bola@example.com",
        role: "support",
        status: "invited",
        lastSignInAt: null,
        expiresAt: new Date(CREATED + 7 * 86_400_000).toISOString(),
      },
    ],
    "POST /v1/merchants/team/invitations": {
      id: TEAM_INVITATION_ID,
      email: "bola@example.com",
      role: "support",
      expiresAt: new Date(CREATED + 7 * 86_400_000).toISOString(),
    },
    "PATCH /v1/merchants/team/{id}": {
      id: TEAM_MEMBER_ID,
      email: "chidi@example.com",
      role: "developer",
      status: "active",
      lastSignInAt: new Date(CREATED).toISOString(),
      expiresAt: null,
    },
    "DELETE /v1/merchants/team/{id}": { id: TEAM_MEMBER_ID, removed: true },
    "POST /v1/merchants/team/invitations/accept": { ...signedIn, role: "support" },
    "GET /v1/merchants/audit-log": {
      entries: [
        {
          id: "3f6b2a1c-8d7e-4c5b-a9f0-1e2d3c4b5a69",
          at: new Date(CREATED).toISOString(),
          mode: "test",
          action: "refund.create",
          target: `rfd_4Gm7Qx2Lp9Zr8Tn3Vb6Ky1Wd on ${REFERENCE}: 1,500.00 NGN`,
          actor: { type: "member", email: "bola@example.com" },
          address: "203.0.113.7",
        },
        {
          id: "2e5a1b0c-7c6d-4b4a-98ef-0d1c2b3a4958",
          at: new Date(CREATED - 60_000).toISOString(),
          mode: "test",
          action: "key.roll",
          target: "test secret key",
          actor: { type: "member", email: "ada@example.com" },
          address: "203.0.113.5",
        },
      ],
      nextCursor: null,
    },
    "POST /v1/merchants/auth/logout": { signedOut: true },
    "POST /v1/merchants/auth/password-reset": { accepted: true },
    "POST /v1/merchants/auth/password-reset/confirm": { passwordChanged: true },
    "POST /v1/merchants/keys/roll": { mode: "test", secretKey: "sk_test_2Zt7Vb4Rc9Yh1Jd6Fg3Lq8Xw5Kp0NmQ" },
    "GET /v1/merchants/settings": presentSettings(merchant),
    "PUT /v1/merchants/settings": presentSettings(merchant),
    "GET /v1/merchants/transactions": { transactions: [verified], nextCursor: null },
    "GET /v1/merchants/webhook": presentEndpoint(endpoint),
    "PUT /v1/merchants/webhook": withSecret,
    "POST /v1/merchants/webhook/roll-secret": {
      ...withSecret,
      previousSecretExpiresAt: new Date(CREATED + 86_400_000).toISOString(),
    },
    "GET /v1/merchants/events": events,
    "POST /v1/merchants/events/{id}/redeliver": { id: "dlv_3", attempt: 3, status: "pending", joined: false },
    "POST /v1/merchants/payment-links": presentLink(link, 0, EXAMPLE_BASE),
    "GET /v1/merchants/payment-links": { links: [presentLink(link, 12, EXAMPLE_BASE)], nextCursor: null },
    "GET /v1/merchants/payment-links/{slug}": presentLink(link, 12, EXAMPLE_BASE),
    "PATCH /v1/merchants/payment-links/{slug}": presentLink({ ...link, active: 0 }, 12, EXAMPLE_BASE),
    "GET /v1/merchants/payment-links/{slug}/display": presentDisplay(link, 12, merchant),
    "POST /v1/merchants/payment-links/{slug}/pay": presentSession(
      {
        ...pending,
        amount_minor: link.amount_minor,
        card_fee_minor: 37_750n,
        transfer_fee_minor: 18_500n,
        channels: link.channels,
        payment_link_id: link.id,
      },
      EXAMPLE_BASE,
    ),
    "GET /v1/ping": { ok: true },
    "GET /v1/openapi.json": { openapi: "3.1.0", info: { title: "Paygate API", version: "1.0" } },
    "GET /v1/inline.js": "/*! Paygate inline checkout 1.0.0 */\n(function(){ … window.Paygate = …; })();\n",
    "GET /v1/inline.mjs":
      '/*! Paygate inline checkout 1.0.0 */\nconst VERSION = "1.0.0";\n…\nexport function open(accessCode, options = {}) { … }\n',
    "GET /v1/health": { database: "reachable", databaseMs: 1.4 },
    "GET /v1/metrics":
      '# HELP paygate_http_requests_total HTTP requests answered, by endpoint, method and status.\n# TYPE paygate_http_requests_total counter\npaygate_http_requests_total{endpoint="/v1/payment/initialize",method="POST",status="200"} 1520\n…\n# HELP paygate_webhook_oldest_pending_seconds How long the longest-waiting webhook delivery has been due without being sent; 0 when none is.\n# TYPE paygate_webhook_oldest_pending_seconds gauge\npaygate_webhook_oldest_pending_seconds 0\n',
    "POST /v1/customers": customerWithCard,
    "GET /v1/customers": customers,
    "GET /v1/customers/{code}": customerWithCard,
    "PATCH /v1/customers/{code}": {
      ...customerWithCard,
      name: "Chioma Okafor-Bello",
      metadata: { plan: "gold" },
    },
    "POST /v1/authorizations/{code}/deactivate": deactivated,
    "POST /v1/merchants/customers": customerWithCard,
    "GET /v1/merchants/customers": customers,
    "GET /v1/merchants/customers/{code}": customerWithCard,
    "PATCH /v1/merchants/customers/{code}": {
      ...customerWithCard,
      name: "Chioma Okafor-Bello",
      metadata: { plan: "gold" },
    },
    "POST /v1/merchants/authorizations/{code}/deactivate": deactivated,
    "POST /v1/payment/charge-authorization": charged,
    "POST /v1/plans": plan,
    "GET /v1/plans": { plans: [plan], nextCursor: null },
    "GET /v1/plans/{code}": plan,
    "PATCH /v1/plans/{code}": { ...plan, amount: "6000.00" },
    "POST /v1/subscriptions": subscription,
    "GET /v1/subscriptions": { subscriptions: [subscription], nextCursor: null },
    "GET /v1/subscriptions/{code}": subscription,
    "PATCH /v1/subscriptions/{code}": subscription,
    "POST /v1/subscriptions/{code}/cancel": { ...subscription, cancelAtPeriodEnd: true, nextChargeAt: null },
    "GET /v1/subscriptions/{code}/invoices": {
      invoices: [presentInvoice(INVOICE_NEXT, 0), presentInvoice(INVOICE_PAID, 0)],
    },
    "POST /v1/subscriptions/{code}/manage-link": {
      url: `${EXAMPLE_BASE}/subscriptions/manage/SUB_7T3N5R6Y9Q2M4K8ZP1XW.mjx3k2ab.${"x".repeat(43)}`,
      expiresAt: "2026-12-01T09:30:00.000Z",
    },
  };
}

const TEAM_MEMBER_ID = "0b5c7a2e-4f1d-4c1b-9d3e-2a6f8e9b1c44";
const TEAM_INVITATION_ID = "5a4b3c2d-1e0f-4a9b-8c7d-6e5f4a3b2c1d";

/** A message of the kind the service writes for each failure code (lib/core/errors.ts). */
export const ERROR_MESSAGES: Record<ErrorCode, string> = {
  validation_error: "amount: must be a decimal string with at most 2 decimal places (got 50.005).",
  bad_request: "The HTTP request is malformed.",
  invalid_json: "The body is not valid JSON: Unexpected token } in JSON at position 17.",
  channel_unavailable: "Payment by bank transfer is not available for this transaction.",
  email_required: "Bank transfer needs the customer's email: pass email to initialize.",
  invalid_api_key: "The secret key is missing, malformed or revoked.",
  invalid_access_code: "The access code has expired; start a new payment.",
  invalid_session: "The session is missing, expired or signed out; sign in again.",
  invalid_credentials: "The email or password is incorrect.",
  invalid_signature:
    "x-paystack-signature is missing or is not the HMAC-SHA512 of this body with the key of its charge.",
  address_not_allowed: "Paystack's webhooks are accepted from PAYSTACK_WEBHOOK_ALLOWED_IPS only.",
  invalid_metrics_token: "The metrics token is not this service's METRICS_TOKEN.",
  stale_event: "This Paystack event is older than 345600 seconds; it is not acted on.",
  live_not_connected:
    "Live payments are not connected for this merchant: connect a Paystack secret key in the console (Settings → Live payments).",
  processor_error: "Paystack could not be reached; nothing was charged. Try again.",
  test_mode_only: "Sandbox actions are available in test mode only, never on live payments.",
  cross_origin: "This request must come from the console's own pages (the Origin header does not match).",
  transaction_not_found: `No transaction ${REFERENCE} for this key.`,
  payment_link_not_found: "No payment link summer-tote.",
  event_not_found: "No event evt_3JcKp0Wq8XvN2mTz6RbL4hYd in test mode.",
  refund_not_found: "id: no refund rfd_4Gm7Qx2Lp9Zr8Tn3Vb6Ky1Wd in test mode.",
  customer_not_found: "code: no customer CUS_4GM7QX2LP9ZR8TN3VB6K in test mode.",
  plan_not_found: "plan: no plan PLN_5K2M9Q4ZP1XW3N7R6T8Y in test mode.",
  subscription_not_found: "No subscription SUB_7T3N5R6Y9Q2M4K8ZP1XW in test mode.",
  plan_inactive: "plan: PLN_5K2M9Q4ZP1XW3N7R6T8Y is deactivated; it takes no new subscriptions.",
  subscription_ended: "Subscription SUB_7T3N5R6Y9Q2M4K8ZP1XW is already cancelled; nothing was changed.",
  authorization_not_found: "authorizationCode: no saved card AUTH_8Q2M4K7ZP1XW3N5R6T9Y in test mode.",
  authorization_inactive:
    "authorizationCode: the saved card AUTH_8Q2M4K7ZP1XW3N5R6T9Y was deactivated and can no longer be charged.",
  reference_in_use:
    "reference: PAY_TXN_INV2026001 is already the reference of another payment; charge with a new reference, or leave it out.",
  route_not_found: "No route GET /v1/payments.",
  method_not_allowed: "DELETE is not allowed here; use GET.",
  invalid_state: "The transaction is already paid; it cannot be charged again.",
  step_already_answered:
    "This phone number was already sent (a second tap, or another tab), and the bank now asks for a one-time password.",
  refund_exceeds_available: "amount: 6000.00 exceeds the 3000.00 still refundable on this payment.",
  payment_link_unavailable: "This payment link has been deactivated by the merchant.",
  idempotency_in_progress: "This Idempotency-Key is contended; retry shortly.",
  email_taken: "email is already registered; sign in instead.",
  forbidden: "Your role (support) does not allow this: it needs the permission keys.write (API keys (roll)).",
  merchant_not_found: "No merchant of yours has that id.",
  member_not_found: "id: no member or invitation 0b5c7a2e-4f1d-4c1b-9d3e-2a6f8e9b1c44 in this team.",
  last_owner: "This is the merchant's last owner: make another member an owner first.",
  already_member: "email: bola@example.com is already a member of this team.",
  invalid_two_factor_code:
    "code: not the code your app shows now, or a code already used; wait for the next one.",
  invalid_token: "This link is unknown, used or expired; ask for a new one.",
  payload_too_large: "The body must not exceed 65536 bytes (64 KiB).",
  headers_too_large: "The request headers are too large.",
  request_timeout: "The request did not arrive in time.",
  unsupported_media_type:
    'Content-Type must be application/json for a request with a body (got "text/plain").',
  idempotency_key_reused:
    "This Idempotency-Key was already used with a different request body; use a new key for a new request.",
  rate_limited: "Too many requests; retry after 30 seconds.",
  internal_error: "Something went wrong on our side; the request id is in x-request-id.",
  service_unavailable: "The service is shutting down or cannot reach its database; retry shortly.",
};
