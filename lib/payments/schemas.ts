import { z } from "zod";
import { amountInput, CustomerName, Email, Metadata } from "@/lib/core/schemas";
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
    amount: amountInput(z.string().max(40, "must be at most 40 characters")),
    currency: CurrencySchema.default(DEFAULT_CURRENCY),
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
    const currency = v.currency as Currency;
    const amount = parseAmount(v.amount, currency);
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
