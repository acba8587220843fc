import { z } from "zod";
import { Money, Reference, Timestamp } from "@/lib/core/schemas";
import { AuthorizationResponse } from "@/lib/customers/responses";
import { ChannelName, CurrencyCode, TransactionStatus } from "@/lib/payments/vocabulary";
import { RefundResponse } from "@/lib/refunds/responses";
import { InvoiceResponse, SubscriptionResponse, SubscriptionStatus } from "@/lib/subscriptions/responses";
import type { EventType } from "@/lib/webhooks/event-types";

/**
 * `data` of each webhook event, exactly as lib/webhooks/event-data.ts writes it with what each emitter adds
 * (strict: a field delivered but not described here fails tests/webhook-event-schemas.test.ts). Every event
 * carries reference, amount, currency and status (docs/api.md "Webhooks"); payment events add the verified fields.
 */
const Base = {
  reference: Reference,
  amount: Money,
  currency: CurrencyCode,
  status: TransactionStatus,
};

const PaymentEventData = z
  .strictObject({
    ...Base,
    channel: ChannelName.nullable(),
    fees: Money.nullable(),
    amountSettled: Money.nullable(),
    paidAt: Timestamp.nullable(),
    metadata: z.record(z.string(), z.unknown()).meta({ description: "As sent on initialize." }),
    customer: z.strictObject({
      code: z
        .string()
        .nullable()
        .meta({ description: "The customer of the payment's email (null without one)." }),
      email: z.string().nullable(),
      name: z.string().nullable(),
    }),
    authorization: AuthorizationResponse.nullable().meta({
      description:
        "The saved card the payment saved (with the customer's consent) or charged with the customer away; null otherwise.",
    }),
  })
  .meta({ id: "PaymentEventData" });

const CheckoutCompletedData = z
  .strictObject(Base)
  .meta({ id: "CheckoutCompletedData", description: "`status` is success, failed or abandoned." });

const AwaitingTransferData = z
  .strictObject({
    ...Base,
    accountNumber: z
      .string()
      .regex(/^\d{10}$/)
      .meta({ description: "The one-time virtual account to transfer to.", example: "9912345678" }),
    bankName: z.string().meta({ example: "Paygate Sandbox Bank" }),
    accountName: z.string().meta({ example: "Paygate / Demo Store" }),
    transferAmount: Money.meta({
      description: "What to transfer: the total the customer pays by transfer, fees included when theirs.",
    }),
    expiresAt: Timestamp.meta({ description: "End of the account's payment window." }),
  })
  .meta({ id: "AwaitingTransferData" });

const AmountMismatchData = z
  .strictObject({
    ...Base,
    accountNumber: z
      .string()
      .regex(/^\d{10}$/)
      .meta({ example: "9912345678" }),
    amountMismatch: z
      .strictObject({
        expected: Money.meta({ description: "What the account expects in all." }),
        received: Money.meta({ description: "What has arrived on it so far (transfers add up)." }),
        due: Money.meta({ description: "What is still to transfer before the window ends." }),
      })
      .meta({ description: "Too little has arrived while the window is open." }),
  })
  .meta({ id: "AmountMismatchData" });

/** `data` of refund.processed and refund.failed: the refund (with its payment's reference). */
const RefundEventData = RefundResponse;

/** `data` of the subscription events (docs/guides/subscriptions.md "Events"). */
const SubscriptionEventData = z
  .strictObject({
    reference: z.string().meta({
      description:
        "The invoice's latest charge (a payment reference), or the subscription's code before any.",
      example: "PAY_TXN_INV3N5R6T9Y8Q2M4K7ZP1XWN1",
    }),
    amount: Money.meta({ description: "The invoice's amount, or the plan's without one." }),
    currency: CurrencyCode,
    status: SubscriptionStatus,
    subscription: SubscriptionResponse,
    invoice: InvoiceResponse.nullable().meta({ description: "The invoice concerned; null for none." }),
  })
  .meta({ id: "SubscriptionEventData" });

export const EVENT_DATA: Record<EventType, z.ZodType> = {
  "payment.completed": PaymentEventData,
  "payment.failed": PaymentEventData,
  "checkout.awaiting_transfer": AwaitingTransferData,
  "checkout.completed": CheckoutCompletedData,
  "checkout.amount_mismatch": AmountMismatchData,
  "refund.processed": RefundEventData,
  "refund.failed": RefundEventData,
  "subscription.created": SubscriptionEventData,
  "subscription.renewed": SubscriptionEventData,
  "invoice.payment_failed": SubscriptionEventData,
  "subscription.past_due": SubscriptionEventData,
  "subscription.cancelled": SubscriptionEventData,
  "subscription.completed": SubscriptionEventData,
};

/** A webhook body as it is delivered: `{event, data, timestamp}`, not wrapped in the success envelope. */
export const webhookBody = (type: EventType) =>
  z.strictObject({ event: z.literal(type), data: EVENT_DATA[type], timestamp: Timestamp });
