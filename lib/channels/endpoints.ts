import { defineEndpoint } from "@/lib/core/endpoint";
import type { ErrorCode } from "@/lib/core/errors";
import { PaystackWebhookResponse } from "@/lib/rails/paystack/responses";
import { PaystackWebhookBody, PaystackWebhookQuery } from "@/lib/rails/paystack/schemas";
import { SIGNATURE_HEADER } from "@/lib/rails/paystack/shapes";
import { cancelCheckout } from "./cancel-checkout";
import { chargeAuthorization } from "./charge-authorization";
import { chargeBankPayment } from "./charge-bank-payment";
import { chargeBankTransfer } from "./charge-bank-transfer";
import { chargeCard } from "./charge-card";
import { chargeUssd } from "./charge-ussd";
import { checkBankPayment } from "./check-bank-payment";
import { checkCardCharge } from "./check-card-charge";
import { receivePaystackWebhook } from "./receive-paystack-webhook";
import {
  BankPaymentResponse,
  CancelResponse,
  CardChargeResponse,
  ChargeAuthorizationResponse,
  InboundTransferResponse,
  SandboxAuthorizationResponse,
  SimulateResponse,
  UssdResponse,
  VirtualAccountResponse,
} from "./responses";
import { sandboxAuthorize } from "./sandbox-authorize";
import { sandboxTransfer } from "./sandbox-transfer";
import {
  AddressBody,
  BankPaymentBody,
  BirthdayBody,
  CardBody,
  ChargeAuthorizationBody,
  EmptyBody,
  OtpBody,
  PhoneBody,
  PinBody,
  SandboxAuthorizationBody,
  SandboxTransferBody,
  SimulateBody,
  UssdBody,
} from "./schemas";
import { simulateBankTransfer } from "./simulate-bank-transfer";
import { submitBankStep } from "./submit-bank-step";
import { submitCardOtp } from "./submit-card-otp";
import { submitCardStep } from "./submit-card-step";

/** Failure codes of every charge: its channel or state, and the payment processor behind live mode. */
const CHARGE_ERRORS: ErrorCode[] = [
  "channel_unavailable",
  "email_required",
  "invalid_state",
  "live_not_connected",
  "payment_link_unavailable",
  "processor_error",
];
/** Failure codes of a charge's next step: no charge waits for it, another answer of it went through, or the processor. */
const STEP_ERRORS: ErrorCode[] = [
  "invalid_state",
  "step_already_answered",
  "live_not_connected",
  "processor_error",
];

const CARD_STEP_DESCRIPTION =
  "Answers the step the card's network asked for; the answer is the card's next state (success, a decline, or another step).";

/** Channels: what the hosted page's charges do (access code), their test-mode doors, and Paystack's events. */
export const channelsEndpoints = {
  card: defineEndpoint({
    method: "POST",
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
    handler: ({ auth, body, clientAddress }) => {
      const { saveCard, locale, ...card } = body;
      return chargeCard({ principal: auth, card, saveCard, locale, clientAddress });
    },
  }),
  cardOtp: defineEndpoint({
    method: "POST",
    path: "/v1/payment/checkout/charge/card/otp",
    tag: "Checkout",
    summary: "Send the card's one-time password",
    description: `${CARD_STEP_DESCRIPTION} A wrong one-time password with tries left answers \`awaiting_otp\` with \`reason: "invalid_otp"\` and \`otpTriesLeft\` (the card is kept: send the OTP again); a card payment takes 3 one-time passwords, and the third wrong one answers \`failed\` with \`reason: "invalid_otp"\` (pay again).`,
    auth: "access_code",
    body: OtpBody,
    status: 200,
    response: CardChargeResponse,
    errors: STEP_ERRORS,
    example: { otp: "123456" },
    handler: ({ auth, body }) => submitCardOtp({ principal: auth, otp: body.otp }),
  }),
  cardPin: defineEndpoint({
    method: "POST",
    path: "/v1/payment/checkout/charge/card/pin",
    tag: "Checkout",
    summary: "Send the card's PIN",
    description: CARD_STEP_DESCRIPTION,
    auth: "access_code",
    body: PinBody,
    status: 200,
    response: CardChargeResponse,
    errors: STEP_ERRORS,
    example: { pin: "1234" },
    handler: ({ auth, body }) => submitCardStep({ principal: auth, answer: { step: "pin", pin: body.pin } }),
  }),
  cardPhone: defineEndpoint({
    method: "POST",
    path: "/v1/payment/checkout/charge/card/phone",
    tag: "Checkout",
    summary: "Send the phone number the card's network asks for",
    description: CARD_STEP_DESCRIPTION,
    auth: "access_code",
    body: PhoneBody,
    status: 200,
    response: CardChargeResponse,
    errors: STEP_ERRORS,
    example: { phone: "08031234567" },
    handler: ({ auth, body }) =>
      submitCardStep({ principal: auth, answer: { step: "phone", phone: body.phone } }),
  }),
  cardBirthday: defineEndpoint({
    method: "POST",
    path: "/v1/payment/checkout/charge/card/birthday",
    tag: "Checkout",
    summary: "Send the date of birth the card's network asks for",
    description: CARD_STEP_DESCRIPTION,
    auth: "access_code",
    body: BirthdayBody,
    status: 200,
    response: CardChargeResponse,
    errors: STEP_ERRORS,
    example: { birthday: "1990-12-31" },
    handler: ({ auth, body }) =>
      submitCardStep({ principal: auth, answer: { step: "birthday", birthday: body.birthday } }),
  }),
  cardAddress: defineEndpoint({
    method: "POST",
    path: "/v1/payment/checkout/charge/card/address",
    tag: "Checkout",
    summary: "Send the card's billing address",
    description: CARD_STEP_DESCRIPTION,
    auth: "access_code",
    body: AddressBody,
    status: 200,
    response: CardChargeResponse,
    errors: STEP_ERRORS,
    example: { address: "140 N 2nd St", city: "Stroudsburg", state: "PA", zipCode: "18360" },
    handler: ({ auth, body }) => submitCardStep({ principal: auth, answer: { step: "address", ...body } }),
  }),
  cardCheck: defineEndpoint({
    method: "POST",
    path: "/v1/payment/checkout/charge/card/check",
    tag: "Checkout",
    summary: "Ask the card's network where the payment stands",
    description:
      "After the customer comes back from the bank's 3-D Secure page, or while a card payment is `processing`: the network's decision, applied as its answer would have been.",
    auth: "access_code",
    body: EmptyBody,
    status: 200,
    response: CardChargeResponse,
    errors: STEP_ERRORS,
    example: {},
    handler: ({ auth }) => checkCardCharge({ principal: auth }),
  }),
  bankTransfer: defineEndpoint({
    method: "POST",
    path: "/v1/payment/checkout/charge/bank-transfer",
    tag: "Checkout",
    summary: "Get a one-time account number to transfer to",
    auth: "access_code",
    body: EmptyBody,
    status: 200,
    response: VirtualAccountResponse,
    errors: CHARGE_ERRORS,
    example: {},
    handler: ({ auth }) => chargeBankTransfer({ principal: auth }),
  }),
  simulateBankTransfer: defineEndpoint({
    method: "POST",
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
    handler: ({ auth, body }) => simulateBankTransfer({ principal: auth, scenario: body.scenario }),
  }),
  bankPayment: defineEndpoint({
    method: "POST",
    path: "/v1/payment/checkout/charge/bank-payment",
    tag: "Checkout",
    summary: "Pay from a bank account: approval in the bank's app, or the steps the bank asks for",
    description:
      "On the sandbox the bank's app is asked for an approval. Through a payment processor the customer's `accountNumber` is debited, after what the bank asks for (`action`: an OTP, a date of birth, the account's phone number or PIN, or its own page to open).",
    auth: "access_code",
    body: BankPaymentBody,
    status: 200,
    response: BankPaymentResponse,
    errors: CHARGE_ERRORS,
    example: { bankCode: "057" },
    handler: ({ auth, body }) => chargeBankPayment({ principal: auth, ...body }),
  }),
  bankPaymentOtp: defineEndpoint({
    method: "POST",
    path: "/v1/payment/checkout/charge/bank-payment/otp",
    tag: "Checkout",
    summary: "Send the one-time password the bank sent",
    auth: "access_code",
    body: OtpBody,
    status: 200,
    response: BankPaymentResponse,
    errors: STEP_ERRORS,
    example: { otp: "123456" },
    handler: ({ auth, body }) => submitBankStep({ principal: auth, answer: { step: "otp", otp: body.otp } }),
  }),
  bankPaymentBirthday: defineEndpoint({
    method: "POST",
    path: "/v1/payment/checkout/charge/bank-payment/birthday",
    tag: "Checkout",
    summary: "Send the date of birth the bank asks for",
    auth: "access_code",
    body: BirthdayBody,
    status: 200,
    response: BankPaymentResponse,
    errors: STEP_ERRORS,
    example: { birthday: "1990-12-31" },
    handler: ({ auth, body }) =>
      submitBankStep({ principal: auth, answer: { step: "birthday", birthday: body.birthday } }),
  }),
  bankPaymentPhone: defineEndpoint({
    method: "POST",
    path: "/v1/payment/checkout/charge/bank-payment/phone",
    tag: "Checkout",
    summary: "Send the phone number the bank asks for",
    auth: "access_code",
    body: PhoneBody,
    status: 200,
    response: BankPaymentResponse,
    errors: STEP_ERRORS,
    example: { phone: "08031234567" },
    handler: ({ auth, body }) =>
      submitBankStep({ principal: auth, answer: { step: "phone", phone: body.phone } }),
  }),
  bankPaymentPin: defineEndpoint({
    method: "POST",
    path: "/v1/payment/checkout/charge/bank-payment/pin",
    tag: "Checkout",
    summary: "Send the account's PIN the bank asks for",
    auth: "access_code",
    body: PinBody,
    status: 200,
    response: BankPaymentResponse,
    errors: STEP_ERRORS,
    example: { pin: "1234" },
    handler: ({ auth, body }) => submitBankStep({ principal: auth, answer: { step: "pin", pin: body.pin } }),
  }),
  bankPaymentCheck: defineEndpoint({
    method: "POST",
    path: "/v1/payment/checkout/charge/bank-payment/check",
    tag: "Checkout",
    summary: "Ask the bank payment's rail where it stands",
    auth: "access_code",
    body: EmptyBody,
    status: 200,
    response: BankPaymentResponse,
    errors: STEP_ERRORS,
    example: {},
    handler: ({ auth }) => checkBankPayment({ principal: auth }),
  }),
  ussd: defineEndpoint({
    method: "POST",
    path: "/v1/payment/checkout/charge/ussd",
    tag: "Checkout",
    summary: "Get a USSD code to dial",
    auth: "access_code",
    body: UssdBody,
    status: 200,
    response: UssdResponse,
    errors: CHARGE_ERRORS,
    example: { bankCode: "057", phoneNumber: "08031234567" },
    handler: ({ auth, body }) =>
      chargeUssd({ principal: auth, phoneNumber: body.phoneNumber, bankCode: body.bankCode }),
  }),
  cancel: defineEndpoint({
    method: "POST",
    path: "/v1/payment/checkout/cancel",
    tag: "Checkout",
    summary: "The customer cancels",
    auth: "access_code",
    body: EmptyBody,
    status: 200,
    response: CancelResponse,
    errors: ["invalid_state"],
    example: {},
    handler: ({ auth }) => cancelCheckout({ principal: auth }),
  }),
  sandboxTransfers: defineEndpoint({
    method: "POST",
    path: "/v1/sandbox/transfers",
    tag: "Sandbox",
    summary: "Test mode: money arrives at a virtual account",
    auth: "secret_key",
    body: SandboxTransferBody,
    status: 200,
    response: InboundTransferResponse,
    errors: ["test_mode_only", "transaction_not_found"],
    example: { accountNumber: "9912345678", amount: "5050.00" },
    handler: ({ auth, body }) => sandboxTransfer({ principal: auth, ...body }),
  }),
  sandboxAuthorizations: defineEndpoint({
    method: "POST",
    path: "/v1/sandbox/authorizations",
    tag: "Sandbox",
    summary: "Test mode: the customer approves or declines in their bank app or on USSD",
    auth: "secret_key",
    body: SandboxAuthorizationBody,
    status: 200,
    response: SandboxAuthorizationResponse,
    errors: ["test_mode_only", "transaction_not_found", "invalid_state"],
    example: { reference: "PAY_TXN_8Q2M4K7ZP1XW3N5R6T9Y", decision: "approve" },
    handler: ({ auth, body }) => sandboxAuthorize({ principal: auth, ...body }),
  }),
  chargeAuthorization: defineEndpoint({
    method: "POST",
    path: "/v1/payment/charge-authorization",
    tag: "Payments",
    summary: "Charge a saved card with the customer away",
    description:
      "Charges an `AUTH_` code saved on the checkout (initialize's `saveCard`). Answers `success`, `failed` with a `reason`, `requires_action` (the bank asks the customer for an OTP or 3-D Secure: send them `checkoutUrl`; the payment stays `pending`) or `pending` (the network has not decided; payment.completed or payment.failed follow). Fees, events, verify and refunds as for any card payment. A `reference` (or an `Idempotency-Key`) already charged answers that charge as it stands, never a second one.",
    auth: "secret_key",
    body: ChargeAuthorizationBody,
    status: 201,
    response: ChargeAuthorizationResponse,
    errors: [
      "authorization_not_found",
      "authorization_inactive",
      "reference_in_use",
      "channel_unavailable",
      "live_not_connected",
      "processor_error",
    ],
    example: {
      authorizationCode: "AUTH_8Q2M4K7ZP1XW3N5R6T9Y",
      amount: "5000.00",
      currency: "NGN",
      reference: "PAY_TXN_INV2026001",
      description: "November invoice",
    },
    handler: ({ auth, body, idempotencyKey, idempotencyRequestHash }) =>
      chargeAuthorization({
        merchantId: auth.merchantId,
        mode: auth.mode,
        charge: body,
        idempotency:
          idempotencyKey !== null && idempotencyRequestHash !== null
            ? { key: idempotencyKey, requestHash: idempotencyRequestHash }
            : null,
      }),
  }),
  paystackWebhook: defineEndpoint({
    method: "POST",
    path: "/v1/rails/paystack/webhook",
    tag: "Processors",
    summary: "Paystack's events: charges, transfers and refunds, signed with the account's secret key",
    description:
      "Set as the Webhook URL in Paystack's dashboard (docs/go-live.md). `x-paystack-signature` must be the HMAC-SHA512 of the raw body with the Paystack key of the account the event is about; unsigned, forged and stale events are refused, an event seen before is answered without being acted on again.",
    auth: "none",
    query: PaystackWebhookQuery,
    body: PaystackWebhookBody,
    rawBody: true,
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
    handler: ({ body, query, rawBody, headers, clientAddress }) =>
      receivePaystackWebhook({
        rawBody,
        body,
        signature: headers.get(SIGNATURE_HEADER),
        clientAddress,
        connection: query.connection,
      }),
  }),
};
