import { z } from "zod";

/**
 * Every Paystack shape the connector relies on that its OpenAPI description (vendor/paystack.yaml, PaystackOSS/
 * openapi at 9678dea) leaves out or types loosely, each with where it comes from. The document is the
 * contract for everything else: the test double (double/) validates every request against the document and,
 * for the parts below, against these schemas too; the connector reads answers through them.
 *
 * Sources (Paystack's own published reference):
 *  [charge]    https://paystack.com/docs/api/charge/ (Create Charge, Submit PIN/OTP/Phone/Birthday/Address,
 *              Check pending charge) and the answers of PaystackOSS/doc-code-snippets
 *              dist/api/charges/{create,submit-pin,submit-otp,submit-phone,submit-birthday,check}/response.json
 *  [cards]     https://paystack.com/docs/payments/payment-channels/#cards: card details may be sent to
 *              /charge only by integrations Paystack has approved (PCI DSS attestation on file)
 *  [pwt]       https://paystack.com/docs/payments/payment-channels/#pay-with-transfer and
 *              PaystackOSS/doc-code-snippets src/doc/payments/payment-methods/pwt/{index.sh,index.json},
 *              dist/doc/payments/payment-methods/pwt-events.js; https://support.paystack.com/en/articles/2128642
 *              (accounts expire, wrong amounts and late transfers are refunded by Paystack itself)
 *  [ussd]      https://paystack.com/docs/payments/payment-channels/#ussd and
 *              PaystackOSS/doc-code-snippets dist/doc/payments/payment-methods/ussd-event.js
 *  [bank]      https://paystack.com/docs/payments/payment-channels/#bank-accounts
 *  [webhooks]  https://paystack.com/docs/payments/webhooks/ (signature, IP addresses, retries) and
 *              PaystackOSS/doc-code-snippets dist/doc/payments/webhooks/events.js
 *  [refunds]   https://paystack.com/docs/payments/refunds/ and
 *              PaystackOSS/doc-code-snippets dist/doc/payments/refunds/events.js
 */

// ---------------------------------------------------------------------------------------------------------
// Requests: the parts of POST /charge the document does not type.

/** [cards] `card` of POST /charge: the document's ChargeCreate has no such property. Strings, as sent. */
export const ChargeCardObject = z.strictObject({
  number: z.string().regex(/^\d{12,19}$/),
  cvv: z.string().regex(/^\d{3,4}$/),
  expiry_month: z.string().regex(/^(0[1-9]|1[0-2])$/),
  expiry_year: z.string().regex(/^\d{4}$/),
});

/** [pwt] `bank_transfer` of POST /charge: when the temporary account stops taking money (ISO 8601). */
export const ChargeBankTransferObject = z.strictObject({
  account_expires_at: z.iso.datetime(),
});

/**
 * Body properties of POST /charge this file types on top of the document (the document's ChargeCreate and
 * its `bank`, `ussd`, `mobile_money`, `eft` objects type the rest). A property in neither is a mistake: the
 * double refuses it.
 */
export const CHARGE_EXTRA_PROPERTIES = { card: ChargeCardObject, bank_transfer: ChargeBankTransferObject };

// ---------------------------------------------------------------------------------------------------------
// Answers: what `data.status` of a charge can be, and the fields each status carries.

/**
 * [charge] [pwt] [ussd] The statuses of a charge in the answers of /charge, /charge/submit_* and
 * GET /charge/{reference}, and of GET /transaction/verify/{reference} (`abandoned`, `ongoing`, `reversed`).
 */
export const CHARGE_STATUSES = [
  "success",
  "failed",
  "pending",
  "processing",
  "ongoing",
  "abandoned",
  "reversed",
  "send_pin",
  "send_otp",
  "send_phone",
  "send_birthday",
  "send_address",
  "open_url",
  "pay_offline",
  "pending_bank_transfer",
] as const;
export type ChargeStatus = (typeof CHARGE_STATUSES)[number];

/**
 * `data` of a charge answer, as the connector reads it. Paystack answers a next step with a few fields only
 * (`{reference, status, display_text}`) and a finished charge with the whole transaction (the document's
 * ChargeCreateResponse), so everything but `status` is optional here; unknown fields are kept.
 */
export const ChargeData = z.looseObject({
  status: z.string(),
  reference: z.string().optional(),
  /** Paystack's id of the transaction (whole answers only). */
  id: z.number().int().optional(),
  /** Minor units (kobo), an integer. */
  amount: z.number().int().optional(),
  currency: z.string().optional(),
  channel: z.string().optional(),
  /** [charge] What to tell the customer at a next step (send_otp, send_birthday, pay_offline, …). */
  display_text: z.string().optional(),
  /** [charge] A failed charge's reason ("Declined", "Insufficient Funds"). */
  message: z.string().nullable().optional(),
  gateway_response: z.string().nullable().optional(),
  /** [charge] open_url: the page to open (3-D Secure, a bank's internet banking). */
  url: z.string().optional(),
  /** [ussd] pay_offline of a USSD charge: the code to dial. */
  ussd_code: z.string().optional(),
  /** [pwt] pending_bank_transfer: the temporary account. */
  account_name: z.string().optional(),
  account_number: z.string().optional(),
  bank: z
    .looseObject({ name: z.string(), slug: z.string().optional(), id: z.number().optional() })
    .optional(),
  account_expires_at: z.string().optional(),
  /**
   * The card Paystack charged, with the code to charge it again (POST /transaction/charge_authorization) when
   * `reusable` (the document's ChargeAuthorizationResponse and VerifyResponse `authorization`).
   */
  authorization: z
    .looseObject({
      authorization_code: z.string().optional(),
      last4: z.string().optional(),
      brand: z.string().optional(),
      bank: z.string().nullable().optional(),
      reusable: z.boolean().optional(),
    })
    .optional(),
});
export type ChargeDataShape = z.infer<typeof ChargeData>;

/** Every answer's envelope: `{status: boolean, message, data?}` (the document's Response and Error). */
export const Envelope = z.looseObject({
  status: z.boolean(),
  message: z.string().optional(),
  data: z.unknown().optional(),
});

/**
 * [charge] [pwt] [ussd] Fields an answer of the double carries beyond the document's schema for a status,
 * checked on every answer it sends (the document's schemas check the rest).
 */
export const STATUS_FIELDS: Partial<Record<ChargeStatus, z.ZodType>> = {
  send_otp: z.looseObject({ display_text: z.string() }),
  send_phone: z.looseObject({ display_text: z.string() }),
  send_birthday: z.looseObject({ display_text: z.string() }),
  send_address: z.looseObject({ display_text: z.string() }),
  open_url: z.looseObject({ url: z.url() }),
  pay_offline: z.looseObject({ display_text: z.string() }),
  pending_bank_transfer: z.looseObject({
    display_text: z.string(),
    account_name: z.string(),
    account_number: z.string().regex(/^\d{10}$/),
    bank: z.looseObject({ slug: z.string(), name: z.string(), id: z.number().int() }),
    account_expires_at: z.iso.datetime({ offset: true }),
  }),
};

/** [refunds] `data` of POST /refund and GET /refund/{id}, as the connector reads it. */
export const RefundData = z.looseObject({
  id: z.number().int(),
  status: z.string(),
  amount: z.number().int().optional(),
  merchant_note: z.string().nullable().optional(),
  transaction_reference: z.string().optional(),
});

/**
 * [refunds] A refund's statuses: `pending` and `processing` move on by themselves; `needs-attention` waits
 * for the merchant (in Paystack's dashboard) to give the customer's account; `processed` and `failed` are final.
 */
export const REFUND_FINAL = { processed: "processed", failed: "failed" } as const;

// ---------------------------------------------------------------------------------------------------------
// Webhooks

/** [webhooks] The header carrying the hex HMAC-SHA512 of the raw body, keyed with the integration's secret key. */
export const SIGNATURE_HEADER = "x-paystack-signature";

/**
 * [webhooks] The addresses Paystack sends webhooks from, the same in test and live mode ("IP whitelisting").
 * PAYSTACK_WEBHOOK_ALLOWED_IPS=paystack admits exactly these.
 */
export const PAYSTACK_WEBHOOK_IPS = ["52.31.139.75", "52.49.173.169", "52.214.14.220"] as const;

/**
 * [webhooks] How long Paystack retries a delivery not answered 200: live mode every 3 minutes for 4 tries,
 * then hourly for 72 hours; test mode hourly for 10 hours.
 */
export const PAYSTACK_RETRY_HOURS = 72;

/** [webhooks] Every event: `{event, data}`, no envelope, no id of its own. */
export const WebhookEvent = z.looseObject({
  event: z.string().min(1),
  data: z.looseObject({}),
});

/** [webhooks] [ussd] [pwt] `data` of charge.success: the transaction, as Verify Transaction answers it. */
export const ChargeSuccessData = z.looseObject({
  id: z.number().int(),
  domain: z.string(),
  status: z.literal("success"),
  reference: z.string(),
  amount: z.number().int(),
  currency: z.string(),
  channel: z.string(),
  paid_at: z.string().nullable().optional(),
  paidAt: z.string().nullable().optional(),
  created_at: z.string().optional(),
});

/**
 * [pwt] `data` of bank.transfer.rejected: a transfer to a temporary account that Paystack refused (the wrong
 * amount, a late or second transfer) and returns to the sender itself. `transaction_id` is Paystack's id of
 * the charge; `amount` is minor units, as a string.
 */
export const BankTransferRejectedData = z.looseObject({
  bank_transfer: z.looseObject({
    amount: z.string().regex(/^\d+$/),
    message: z.string().optional(),
    message_type: z.string().optional(),
    transaction_id: z.string().regex(/^\d+$/),
  }),
});

/** [refunds] `data` of refund.pending|processing|processed|failed|needs-attention. */
export const RefundEventData = z.looseObject({
  status: z.string(),
  transaction_reference: z.string(),
  refund_reference: z.string().nullable().optional(),
  amount: z.union([z.string(), z.number()]).optional(),
  domain: z.string().optional(),
});
