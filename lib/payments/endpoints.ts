import { defineEndpoint } from "@/lib/core/endpoint";
import { initializePayment } from "./initialize-payment";
import { listBanks } from "./list-banks";
import { BankListResponse, CheckoutRecordResponse, SessionResponse, VerifiedResponse } from "./responses";
import { BanksQuery, InitializeBody, ReferenceParams } from "./schemas";
import { verifyCheckout } from "./verify-checkout";
import { verifyPayment } from "./verify-payment";

/** Payments: the merchant's server creates and verifies (secret key); the hosted page polls (access code). */
export const paymentsEndpoints = {
  initialize: defineEndpoint({
    method: "POST",
    path: "/v1/payment/initialize",
    tag: "Payments",
    summary: "Create a payment and its checkout session",
    description:
      "Creates a pending transaction and answers its session: `checkoutUrl` for the customer, the fee and total per channel. With the same `Idempotency-Key` a retry answers the first result.",
    auth: "secret_key",
    body: InitializeBody,
    status: 201,
    response: SessionResponse,
    errors: ["channel_unavailable", "email_required", "plan_not_found", "plan_inactive"],
    example: {
      amount: "5000.00",
      currency: "NGN",
      email: "customer@example.com",
      callbackUrl: "https://shop.example/return",
      locale: "yo",
    },
    handler: ({ auth, body, idempotencyKey, idempotencyRequestHash }) =>
      initializePayment({
        merchantId: auth.merchantId,
        mode: auth.mode,
        merchant: auth.merchant,
        payment: body,
        idempotency:
          idempotencyKey !== null && idempotencyRequestHash !== null
            ? { key: idempotencyKey, requestHash: idempotencyRequestHash }
            : null,
      }),
  }),
  verify: defineEndpoint({
    method: "GET",
    path: "/v1/payment/verify/{reference}",
    tag: "Payments",
    summary: "Verify a payment before fulfilling",
    auth: "secret_key",
    params: ReferenceParams,
    status: 200,
    response: VerifiedResponse,
    errors: ["transaction_not_found"],
    handler: ({ auth, params }) =>
      verifyPayment({ merchantId: auth.merchantId, mode: auth.mode, reference: params.reference }),
  }),
  checkoutVerify: defineEndpoint({
    method: "GET",
    path: "/v1/payment/checkout/verify",
    tag: "Checkout",
    summary: "The checkout's status (the hosted page's poll)",
    auth: "access_code",
    status: 200,
    response: CheckoutRecordResponse,
    handler: ({ auth }) => verifyCheckout({ principal: auth }),
  }),
  banks: defineEndpoint({
    method: "GET",
    path: "/v1/payment/checkout/banks",
    tag: "Checkout",
    summary: "Banks for bank payment and USSD",
    auth: "access_code",
    query: BanksQuery,
    status: 200,
    response: BankListResponse,
    handler: ({ auth, query }) => listBanks({ principal: auth, country: query.country }),
  }),
};
