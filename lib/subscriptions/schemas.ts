import { z } from "zod";
import { PLAN_CODE, SUBSCRIPTION_CODE } from "@/lib/billing/codes";
import { INTERVALS } from "@/lib/billing/periods";
import { SUBSCRIPTION_STATUSES } from "@/lib/billing/subscription-status";
import { amountInput } from "@/lib/core/schemas";
import { CUSTOMER_CODE } from "@/lib/customers/codes";
import { AuthorizationCodeField } from "@/lib/customers/schemas";
import { parseAmount } from "@/lib/money/amount";
import { CURRENCY_CODES, type Currency, DEFAULT_CURRENCY } from "@/lib/money/currencies";

/** Request schemas of plans and subscriptions (docs/guides/subscriptions.md). */

const PlanName = z
  .string({ message: "must be a string" })
  .trim()
  .min(1, "must not be empty")
  .max(200, "must be at most 200 characters");
const Description = z.string({ message: "must be a string" }).max(500, "must be at most 500 characters");
const Interval = z.enum(INTERVALS, { message: `must be one of ${INTERVALS.join(", ")}` });
const Amount = amountInput(
  z.string({ message: 'must be a decimal string like "5000.00"' }).max(40, "must be at most 40 characters"),
);

export const CreatePlanBody = z
  .strictObject({
    name: PlanName,
    amount: Amount,
    currency: z
      .enum(CURRENCY_CODES, { message: `must be one of ${CURRENCY_CODES.join(", ")}` })
      .default(DEFAULT_CURRENCY),
    interval: Interval,
    description: Description.nullish(),
    trialDays: z
      .number({ message: "must be a whole number of days from 0 to 365" })
      .int("must be a whole number of days from 0 to 365")
      .min(0, "must be a whole number of days from 0 to 365")
      .max(365, "must be a whole number of days from 0 to 365")
      .default(0),
    invoiceLimit: z
      .number({ message: "must be a whole number from 1 to 1000" })
      .int("must be a whole number from 1 to 1000")
      .min(1, "must be a whole number from 1 to 1000")
      .max(1000, "must be a whole number from 1 to 1000")
      .nullish(),
  })
  .transform((v, ctx) => {
    const currency = v.currency as Currency;
    const amount = parseAmount(v.amount, currency);
    if (!amount.ok) {
      ctx.addIssue({ code: "custom", path: ["amount"], message: amount.reason });
      return z.NEVER;
    }
    return {
      name: v.name,
      amountMinor: amount.minor,
      currency,
      interval: v.interval,
      description: v.description ?? null,
      trialDays: v.trialDays,
      invoiceLimit: v.invoiceLimit ?? null,
    };
  });

export type CreatePlanInput = z.output<typeof CreatePlanBody>;

/** A plan's amount is in its own currency, so it is parsed by the verb (updatePlan) once the plan is known. */
export const UpdatePlanBody = z.strictObject({
  name: PlanName.optional(),
  description: Description.nullable().optional(),
  amount: Amount.optional(),
  active: z.boolean({ message: "must be true or false" }).optional(),
});

export type PlanPatch = z.output<typeof UpdatePlanBody>;

const Limit = z.coerce
  .number({ message: "must be a whole number from 1 to 100" })
  .int("must be a whole number from 1 to 100")
  .min(1, "must be a whole number from 1 to 100")
  .max(100, "must be a whole number from 1 to 100")
  .default(20);
const Cursor = z.string().max(200, "must be at most 200 characters").optional();

const PlanCode = z
  .string({ message: "must be a plan code like PLN_... from POST /v1/plans" })
  .regex(PLAN_CODE, "must be a plan code like PLN_... from POST /v1/plans");
const CustomerCode = z
  .string({ message: "must be a customer code like CUS_..." })
  .regex(CUSTOMER_CODE, "must be a customer code like CUS_...");
const SubscriptionCode = z
  .string({ message: "must be a subscription code like SUB_..." })
  .regex(SUBSCRIPTION_CODE, "must be a subscription code like SUB_...");

export const PlansQuery = z.strictObject({
  active: z
    .enum(["true", "false"], { message: "must be true or false" })
    .optional()
    .meta({ description: "Only active (true) or deactivated (false) plans." }),
  limit: Limit,
  cursor: Cursor,
});

export const PlanParams = z.strictObject({ code: PlanCode });

export const SubscriptionParams = z.strictObject({ code: SubscriptionCode });

export const SubscriptionsQuery = z.strictObject({
  customer: CustomerCode.optional(),
  plan: PlanCode.optional(),
  status: z
    .enum(SUBSCRIPTION_STATUSES, { message: `must be one of ${SUBSCRIPTION_STATUSES.join(", ")}` })
    .optional(),
  limit: Limit,
  cursor: Cursor,
});

/** The longest a subscription's first charge may wait: a year. */
const MAX_START_AHEAD_MS = 366 * 86_400_000;

export const CreateSubscriptionBody = z.strictObject({
  customer: CustomerCode,
  plan: PlanCode,
  authorizationCode: AuthorizationCodeField,
  startAt: z.iso
    .datetime({ message: "must be an ISO 8601 time in UTC, like 2026-12-01T09:00:00Z" })
    .refine((v) => Date.parse(v) <= Date.now() + MAX_START_AHEAD_MS, "must be within a year from now")
    .optional()
    .meta({
      description:
        "When the first period starts and is charged; now when left out (a time in the past is now).",
    }),
});

export type CreateSubscriptionInput = z.output<typeof CreateSubscriptionBody>;

export const CancelSubscriptionBody = z
  .strictObject({
    atPeriodEnd: z.boolean({ message: "must be true or false" }).default(false).meta({
      description: "Cancel when the paid period ends (nothing more is charged), rather than at once.",
    }),
  })
  .default({ atPeriodEnd: false });

export const UpdateSubscriptionBody = z.strictObject({
  plan: PlanCode.optional().meta({
    description: "A new plan (same currency), from the next period; no proration.",
  }),
  authorizationCode: AuthorizationCodeField.optional().meta({
    description: "Another saved card of the same customer; on a past-due subscription it is charged at once.",
  }),
});
