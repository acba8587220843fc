import { z } from "zod";
import { AMOUNT_INPUT_META, CustomerName, Email, Metadata } from "@/lib/core/schemas";
import { LOCALES } from "@/lib/i18n/locales";
import { parseAmount } from "@/lib/money/amount";
import { CURRENCY_CODES, type Currency, DEFAULT_CURRENCY } from "@/lib/money/currencies";
import { checkDistribution } from "@/lib/money/distribution";

/** Request schemas of the payment endpoints; shared by the route handlers and tests. */

// Shared with the other areas' requests (customers, links): defined in lib/core/schemas.ts.
export {
  CustomerName,
  Email,
  jsonDepth,
  MAX_METADATA_BYTES,
  MAX_METADATA_DEPTH,
  Metadata,
} from "@/lib/core/schemas";

export const HttpUrl = z
  .url({ protocol: /^https?$/, message: "must be an absolute http(s) URL" })
  .max(2048, "must be at most 2048 characters");

/** initialize's `saveCard`: a box the customer may tick, or the payment's terms. */
export const SAVE_CARD_MODES = ["optional", "required"] as const;
export type SaveCardMode = (typeof SAVE_CARD_MODES)[number];

const CurrencySchema = z.enum(CURRENCY_CODES, { message: `must be one of ${CURRENCY_CODES.join(", ")}` });

export const InitializeBody = z
  .strictObject({
    amount: z
      .string()
      .max(40, "must be at most 40 characters")
      .optional()
      .meta({
        ...AMOUNT_INPUT_META,
        description: `${AMOUNT_INPUT_META.description} Required, except with \`plan\`: then it may be left out (the plan's amount), and if given must equal the plan's.`,
      }),
    currency: CurrencySchema.optional().meta({
      description: `Defaults to ${DEFAULT_CURRENCY}; with \`plan\`, the plan's (if given, it must be the plan's).`,
    }),
    plan: z
      .string({ message: "must be a plan code like PLN_... from POST /v1/plans" })
      // lib/billing/codes.ts PLAN_CODE (not imported: the console's forms load these schemas, that file not).
      .regex(/^PLN_[0-9A-Z]{20}$/, "must be a plan code like PLN_... from POST /v1/plans")
      .nullish()
      .meta({
        description:
          'Subscribe the customer to one of the merchant\'s active plans (POST /v1/plans): the payment is the plan\'s amount and currency, takes the card with `saveCard: "required"` (needs `email`), the checkout states the plan\'s terms ("NGN 5,000.00 every month, first charge today"), and its first success starts the subscription (its first period paid). Plans with a trial start from POST /v1/subscriptions.',
      }),
    email: Email.nullish(),
    customerName: CustomerName.nullish(),
    callbackUrl: HttpUrl.nullish(),
    description: z.string().max(500, "must be at most 500 characters").nullish(),
    metadata: Metadata.nullish(),
    distribution: z
      .record(z.string(), z.union([z.number(), z.string()], { message: "values must be numbers" }))
      .nullish(),
    merchantBearsCost: z.boolean().nullish(),
    saveCard: z.enum(SAVE_CARD_MODES, { message: 'must be "optional" or "required"' }).nullish().meta({
      description:
        'Keep the card the customer pays with, to charge it later with the customer away (POST /v1/payment/charge-authorization): `optional` shows an unticked box "Save this card for future payments to {merchant}"; `required` says the card will be saved and charged later by the merchant, and offers only the card channel. Needs `email` (cards are saved to its customer). Without it nothing is saved. The consent is kept: the words shown, the time and the client address.',
    }),
    locale: z
      .enum(LOCALES, { message: `must be one of ${LOCALES.join(", ")}` })
      .nullish()
      .meta({
        description:
          "The hosted checkout's language: en (default), fr, yo (Yoruba), ha (Hausa), ig (Igbo) or pcm (Nigerian Pidgin). Without it the page follows `?lang=` and the browser's Accept-Language; the customer can change it on the page.",
      }),
  })
  .transform((v, ctx) => {
    const currency = (v.currency ?? DEFAULT_CURRENCY) as Currency;
    if (v.plan) {
      // The plan decides the amount and currency (lib/payments/plan-payment.ts checks what was given).
      if (v.saveCard === "optional") {
        ctx.addIssue({
          code: "custom",
          path: ["saveCard"],
          message: 'must be "required" or left out with plan: a subscription charges the saved card',
        });
        return z.NEVER;
      }
      if (v.distribution) {
        ctx.addIssue({ code: "custom", path: ["distribution"], message: "is not taken with plan" });
        return z.NEVER;
      }
    } else if (v.amount === undefined) {
      ctx.addIssue({ code: "custom", path: ["amount"], message: "is required" });
      return z.NEVER;
    }
    const amount =
      v.amount === undefined ? ({ ok: true, minor: 0n } as const) : parseAmount(v.amount, currency);
    if (!amount.ok) {
      ctx.addIssue({ code: "custom", path: ["amount"], message: amount.reason });
      return z.NEVER;
    }
    let distributionMinor: Record<string, bigint> | undefined;
    if (v.distribution) {
      const checked = checkDistribution(v.distribution, amount.minor, currency);
      if (!checked.ok) {
        ctx.addIssue({
          code: "custom",
          path: ["distribution", ...checked.issue.path],
          message: checked.issue.message,
        });
        return z.NEVER;
      }
      distributionMinor = checked.minor;
    }
    return {
      amountMinor: amount.minor,
      currency,
      email: v.email ?? undefined,
      customerName: v.customerName ?? undefined,
      callbackUrl: v.callbackUrl ?? undefined,
      description: v.description ?? undefined,
      locale: v.locale ?? undefined,
      metadata: v.metadata ?? undefined,
      distributionMinor,
      merchantBearsCost: v.merchantBearsCost ?? undefined,
      saveCard: v.saveCard ?? undefined,
      /** With `plan`: the plan's code and what the request said of the amount and currency, checked against it. */
      plan: v.plan ? { code: v.plan, amount: v.amount, currency: v.currency } : undefined,
    };
  });

export type InitializeInput = z.output<typeof InitializeBody>;

export const ReferenceParams = z.strictObject({
  reference: z
    .string()
    .regex(/^PAY_TXN_[A-Za-z0-9]{1,64}$/, "must be a transaction reference like PAY_TXN_... from initialize"),
});

export const BanksQuery = z.strictObject({
  country: z
    .string()
    .transform((v) => v.toUpperCase())
    .pipe(z.enum(["NG", "GH", "KE"], { message: "must be a supported country code: NG, GH or KE" }))
    .optional(),
});
