import { z } from "zod";
import { ModeSchema } from "@/lib/core/schemas";
import { CURRENCY_CODES, type Currency } from "@/lib/money/currencies";
import { type CurrencyFeeChanges, parseCurrencyFees } from "@/lib/money/fees";
import { CHANNELS } from "@/lib/payments/channel-list";
import { TRANSACTION_STATUSES } from "@/lib/payments/status";
import { EmbedOriginsSchema } from "./embed-origins";
import { logoUrlProblem } from "./logo-url";

/** Request schemas of the merchant endpoints (docs/api.md). */
const email = z
  .email({ message: "must be a valid email address" })
  .max(254)
  .transform((v) => v.toLowerCase());

const BusinessName = z.string().trim().min(1, "must not be empty").max(120, "must be at most 120 characters");

/** The email rule of every account form: trimmed by the parser, at most 254 characters, compared in lower case. */
export const EmailField = email;

/** A password being chosen (signup, an invitation accepted, a reset). */
export const NewPassword = z
  .string()
  .min(10, "must be at least 10 characters")
  .max(200, "must be at most 200 characters");

export const SignupBody = z.strictObject({
  businessName: BusinessName,
  email,
  password: NewPassword,
});

const MerchantId = z.string().trim().min(1, "must not be empty").max(64, "must be at most 64 characters");

export const LoginBody = z.strictObject({
  email,
  password: z.string().min(1, "must not be empty").max(200, "must be at most 200 characters"),
  /** Which of the user's merchants to sign in to; the one signed in to last when left out. */
  merchantId: MerchantId.optional(),
});

export const SwitchMerchantBody = z.strictObject({ merchantId: MerchantId });

export const RollKeyBody = z.strictObject({ mode: ModeSchema });

const feeString = () => z.string().max(24, "must be at most 24 characters");

const FeeRuleSchema = z.strictObject({
  percent: feeString(),
  flat: feeString().optional(),
  flatWaivedBelow: feeString().optional(),
  cap: feeString().nullable().optional(),
});

const CurrencyFeesSchema = z
  .strictObject({ card: FeeRuleSchema.nullable().optional(), transfer: FeeRuleSchema.nullable().optional() })
  .refine((v) => v.card !== undefined || v.transfer !== undefined, {
    message: "must name card, transfer or both (null restores a channel's default)",
  });

/**
 * A merchant's own fee rules, as the operator sets them (`npm run merchant:fees`; merchants cannot):
 * `{NGN: {card: {...}, transfer: null}, USD: null}` → each named currency's parsed changes, or null.
 */
export const FeesBody = z
  .strictObject(
    Object.fromEntries(CURRENCY_CODES.map((c) => [c, CurrencyFeesSchema.nullable().optional()])) as Record<
      Currency,
      z.ZodOptional<z.ZodNullable<typeof CurrencyFeesSchema>>
    >,
  )
  .transform((fees, ctx) => {
    const changes: Partial<Record<Currency, CurrencyFeeChanges | null>> = {};
    for (const currency of CURRENCY_CODES) {
      const rules = fees[currency];
      if (rules === undefined) continue;
      if (rules === null) {
        changes[currency] = null;
        continue;
      }
      const parsed = parseCurrencyFees(rules, currency);
      if (!parsed.ok) {
        ctx.addIssue({
          code: "custom",
          message: parsed.reason,
          path: [currency, ...parsed.field.split(".")],
        });
        return z.NEVER;
      }
      changes[currency] = parsed.value;
    }
    return changes;
  });

export const SettingsBody = z
  .strictObject({
    /** The name customers see on the checkout, the payment links and the receipts. */
    businessName: BusinessName.optional(),
    channels: z
      .array(z.enum(CHANNELS, { message: `must be one of ${CHANNELS.join(", ")}` }))
      .min(1, "must enable at least one channel")
      .max(CHANNELS.length)
      .refine((list) => new Set(list).size === list.length, "must not repeat a channel")
      .optional(),
    merchantBearsCost: z.boolean().optional(),
    brandColor: z
      .string()
      .regex(/^#[0-9a-fA-F]{6}$/, "must be a hex colour like #0a7d5a")
      .nullable()
      .optional(),
    /** Shown on the checkout and link pages: https on a public host on production (lib/merchants/logo-url.ts). */
    logoUrl: z
      .url({ protocol: /^https?$/, message: "must be an http(s) URL" })
      .max(2048)
      .superRefine((value, ctx) => {
        const problem = logoUrlProblem(value);
        if (problem) ctx.addIssue({ code: "custom", message: problem });
      })
      .nullable()
      .optional()
      .meta({
        description:
          "The logo the checkout and payment link pages show: https on a public host on production; staging also takes http and any host. null removes it.",
      }),
    /** The web origins that may frame the checkout (lib/merchants/embed-origins.ts); [] frames it nowhere. */
    embedOrigins: EmbedOriginsSchema.optional().meta({
      description:
        "The web origins whose pages may open the checkout embedded (/v1/inline.js), e.g. https://shop.example: https only on production; staging also takes http://localhost and http://127.0.0.1. The full list; [] allows none.",
    }),
    /** The days after a failed renewal on which it is tried again (lib/billing/dunning.ts). */
    dunningDays: z
      .array(
        z
          .number({ message: "must be whole numbers of days from 1 to 60" })
          .int("must be whole numbers of days from 1 to 60")
          .min(1, "must be whole numbers of days from 1 to 60")
          .max(60, "must be whole numbers of days from 1 to 60"),
      )
      .min(1, "must list at least one day")
      .max(5, "must list at most 5 days")
      .refine(
        (days) => days.every((d, i) => i === 0 || d > (days[i - 1] ?? 0)),
        "must be in increasing order",
      )
      .optional()
      .meta({
        description:
          "The days after a subscription's failed charge on which it is tried again, counted from when it was due (default [1, 3, 5]); after the last it is cancelled.",
        example: [1, 3, 5],
      }),
  })
  .refine(
    (v) => Object.keys(v).length > 0,
    "must set at least one of businessName, channels, merchantBearsCost, brandColor, logoUrl, embedOrigins, dunningDays",
  );

export const TransactionsQuery = z.strictObject({
  limit: z.coerce.number().int().min(1).max(100).default(20),
  status: z
    .enum(TRANSACTION_STATUSES, { message: `must be one of ${TRANSACTION_STATUSES.join(", ")}` })
    .optional(),
  cursor: z.string().max(200).optional(),
});

/** PUT /v1/merchants/paystack: a Paystack secret key for a mode (checked against Paystack before it is kept). */
export const PaystackConnectBody = z.strictObject({
  mode: ModeSchema,
  secretKey: z
    .string({ message: "must be a string" })
    .trim()
    .regex(
      /^sk_(test|live)_[0-9A-Za-z]{16,128}$/,
      "must be a Paystack secret key (sk_test_... or sk_live_...)",
    ),
});

export const PaystackModeBody = z.strictObject({ mode: ModeSchema });

export const PaystackModeQuery = z.strictObject({ mode: ModeSchema });

export const PasswordResetBody = z.strictObject({ email });

export const PasswordResetConfirmBody = z.strictObject({
  token: z.string().min(1, "must not be empty").max(100, "must be at most 100 characters"),
  password: NewPassword,
});

export const LoginTwoFactorBody = z
  .strictObject({
    challenge: z.string().min(1, "must not be empty").max(100, "must be at most 100 characters"),
    code: z
      .string()
      .regex(/^\d{6}$/, "must be the 6 digits your authenticator app shows")
      .optional(),
    recoveryCode: z.string().min(1, "must not be empty").max(40, "must be at most 40 characters").optional(),
  })
  .refine((b) => (b.code === undefined) !== (b.recoveryCode === undefined), {
    message: "send either code or recoveryCode",
    path: ["code"],
  });

export const TwoFactorEnableBody = z.strictObject({
  code: z.string().regex(/^\d{6}$/, "must be the 6 digits your authenticator app shows"),
});

export const TwoFactorRequirementBody = z.strictObject({
  required: z.boolean({ message: "must be true or false" }),
});
