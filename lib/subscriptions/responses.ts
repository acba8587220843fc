import { z } from "zod";
import { INTERVALS } from "@/lib/billing/periods";
import { SUBSCRIPTION_STATUSES } from "@/lib/billing/subscription-status";
import { Money, Reference, Timestamp } from "@/lib/core/schemas";
import { AuthorizationResponse } from "@/lib/customers/responses";
import { CurrencyCode } from "@/lib/payments/vocabulary";

/** Answers of plans and subscriptions (lib/billing/present.ts writes them). */

export const PlanResponse = z
  .strictObject({
    code: z
      .string()
      .regex(/^PLN_[0-9A-Z]{20}$/)
      .meta({ example: "PLN_5K2M9Q4ZP1XW3N7R6T8Y" }),
    name: z.string().meta({ example: "Gold" }),
    amount: Money,
    currency: CurrencyCode,
    interval: z.enum(INTERVALS),
    description: z.string().nullable(),
    trialDays: z.number().int().meta({ description: "Days before the first charge (0: charged at once)." }),
    invoiceLimit: z
      .number()
      .int()
      .nullable()
      .meta({ description: "Paid invoices after which a subscription is `completed`; null: no end." }),
    active: z
      .boolean()
      .meta({ description: "A deactivated plan takes no new subscriptions; existing ones go on." }),
    createdAt: Timestamp,
  })
  .meta({ id: "Plan" });

export const PlanListResponse = z.object({ plans: z.array(PlanResponse), nextCursor: z.string().nullable() });

export const SubscriptionStatus = z.enum(SUBSCRIPTION_STATUSES).meta({ id: "SubscriptionStatus" });

export const SubscriptionResponse = z
  .strictObject({
    code: z
      .string()
      .regex(/^SUB_[0-9A-Z]{20}$/)
      .meta({ example: "SUB_7T3N5R6Y9Q2M4K8ZP1XW" }),
    customer: z.strictObject({ code: z.string(), email: z.string() }),
    plan: z.strictObject({
      code: z.string(),
      name: z.string(),
      amount: Money,
      currency: CurrencyCode,
      interval: z.enum(INTERVALS),
    }),
    authorization: AuthorizationResponse.nullable().meta({ description: "The saved card it charges." }),
    status: SubscriptionStatus,
    currentPeriodStart: Timestamp,
    currentPeriodEnd: Timestamp,
    nextChargeAt: Timestamp.nullable().meta({
      description:
        "When it is charged next: the renewal, or while past due the next retry; null when it will not be.",
    }),
    cancelAtPeriodEnd: z.boolean(),
    invoicesPaid: z.number().int(),
    trialEndsAt: Timestamp.nullable(),
    createdAt: Timestamp,
    cancelledAt: Timestamp.nullable(),
    cancelReason: z.enum(["requested", "payment_failed"]).nullable().meta({
      description: "`requested`: by the merchant or the customer; `payment_failed`: the last retry failed.",
    }),
  })
  .meta({ id: "Subscription" });

export const SubscriptionListResponse = z.object({
  subscriptions: z.array(SubscriptionResponse),
  nextCursor: z.string().nullable(),
});

export const InvoiceResponse = z
  .strictObject({
    id: z
      .string()
      .regex(/^INV_[0-9A-Z]{20}$/)
      .meta({ example: "INV_3N5R6T9Y8Q2M4K7ZP1XW" }),
    periodStart: Timestamp,
    periodEnd: Timestamp,
    amount: Money,
    currency: CurrencyCode,
    status: z.enum(["paid", "open", "void"]),
    attempts: z.number().int().meta({ description: "Charges tried so far." }),
    nextAttemptAt: Timestamp.nullable().meta({
      description: "When it is charged next; null when it will not be.",
    }),
    reference: Reference.nullable().meta({
      description: "The payment of its latest charge (verify it like any payment).",
    }),
    paidAt: Timestamp.nullable(),
  })
  .meta({ id: "Invoice" });

export const InvoiceListResponse = z.object({ invoices: z.array(InvoiceResponse) });

export const ManageLinkResponse = z.strictObject({
  url: z
    .url()
    .meta({ example: "https://pay.example.com/subscriptions/manage/SUB_7T3N5R6Y9Q2M4K8ZP1XW.mjx3k2.abc" }),
  expiresAt: Timestamp,
});
