import { z } from "zod";
import { amountInput, Metadata } from "@/lib/core/schemas";
import { AuthorizationCodeField } from "@/lib/customers/schemas";
import { LOCALES } from "@/lib/i18n/locales";
import { parseAmount } from "@/lib/money/amount";
import { CURRENCY_CODES, type Currency, DEFAULT_CURRENCY } from "@/lib/money/currencies";
import { luhnValid } from "./card-brand";

/** Request schemas of the checkout charge endpoints and the sandbox doors. */

const intLike = (field: string, min: number, max: number) =>
  z
    .union([z.number(), z.string()], { message: "must be a number or a numeric string" })
    .transform((v, ctx) => {
      const n = typeof v === "number" ? v : /^\d{1,4}$/.test(v) ? Number(v) : Number.NaN;
      if (!Number.isInteger(n) || n < min || n > max) {
        ctx.addIssue({ code: "custom", message: `must be a whole number from ${min} to ${max}` });
        return z.NEVER;
      }
      return n;
    })
    .describe(field);

export const CardBody = z
  .strictObject({
    number: z
      .string()
      .max(40, "must be at most 40 characters")
      .transform((v) => v.replace(/[\s-]/g, ""))
      .refine((v) => /^\d{12,19}$/.test(v), "must be 12 to 19 digits")
      .refine((v) => luhnValid(v), "is not a valid card number (checksum)"),
    expiryMonth: intLike("expiryMonth", 1, 12),
    expiryYear: intLike("expiryYear", 0, 2100).transform((y) => (y < 100 ? 2000 + y : y)),
    cvv: z.string().regex(/^\d{3,4}$/, "must be 3 or 4 digits"),
    saveCard: z.boolean({ message: "must be true or false" }).optional().meta({
      description:
        'The customer ticked "Save this card for future payments" (initialize\'s `saveCard: "optional"`). With `saveCard: "required"` the card is saved whatever this says (paying is agreeing to the terms shown); on a payment that offers no saving, `true` is refused.',
    }),
    locale: z
      .enum(LOCALES, { message: `must be one of ${LOCALES.join(", ")}` })
      .optional()
      .meta({
        description:
          "The language the page showed the saving's words in (kept with the consent); the payment's own language, else English, when left out.",
      }),
  })
  .superRefine((card, ctx) => {
    const now = new Date();
    const current = now.getUTCFullYear() * 12 + now.getUTCMonth();
    // A card is valid through the last day of its expiry month.
    if (card.expiryYear * 12 + (card.expiryMonth - 1) < current) {
      ctx.addIssue({
        code: "custom",
        path: ["expiryYear"],
        message: "the card has expired (expiry must not be in the past)",
      });
    }
    if (card.expiryYear > now.getUTCFullYear() + 25) {
      ctx.addIssue({ code: "custom", path: ["expiryYear"], message: "must be within 25 years" });
    }
  });

export const OtpBody = z.strictObject({ otp: z.string().regex(/^\d{4,8}$/, "must be 4 to 8 digits") });

/** A card's PIN, for a card network that asks for one (never stored, never logged). */
export const PinBody = z.strictObject({ pin: z.string().regex(/^\d{4}$/, "must be 4 digits") });

const Phone = z
  .string({ message: "must be a string" })
  .max(40, "must be at most 40 characters")
  .transform((v) => v.replace(/[\s()-]/g, ""))
  .refine(
    (v) => /^\+?\d{10,15}$/.test(v),
    "must be a phone number of 10 to 15 digits, optionally starting with +",
  );

export const PhoneBody = z.strictObject({ phone: Phone });

/** A date of birth, YYYY-MM-DD: a real calendar date, in the past, at most 130 years ago. */
export const BirthdayBody = z.strictObject({
  birthday: z
    .string({ message: "must be a date like 1990-12-31" })
    .regex(/^\d{4}-\d{2}-\d{2}$/, "must be a date like 1990-12-31 (YYYY-MM-DD)")
    .refine((v) => {
      const at = new Date(`${v}T00:00:00Z`);
      return !Number.isNaN(at.getTime()) && at.toISOString().slice(0, 10) === v;
    }, "must be a real calendar date")
    .refine((v) => {
      const at = Date.parse(`${v}T00:00:00Z`);
      return at < Date.now() && at > Date.now() - 130 * 365.25 * 86_400_000;
    }, "must be in the past, at most 130 years ago"),
});

const AddressPart = (max: number) =>
  z
    .string({ message: "must be a string" })
    .trim()
    .min(1, "must not be empty")
    .max(max, `must be at most ${max} characters`);

/** A card's billing address, for address verification. */
export const AddressBody = z.strictObject({
  address: AddressPart(200),
  city: AddressPart(100),
  state: AddressPart(100),
  zipCode: z
    .string({ message: "must be a string" })
    .trim()
    .regex(/^[0-9A-Za-z -]{2,12}$/, "must be 2 to 12 letters, digits, spaces or hyphens"),
});

export const BankPaymentBody = z.strictObject({
  bankCode: z.string().regex(/^[0-9A-Z]{2,10}$/, "must be a bank code from /payment/checkout/banks"),
  /** The customer's account to debit, where the rail debits one (Paystack's bank charge). */
  accountNumber: z
    .string()
    .regex(/^\d{10}$/, "must be a 10-digit account number")
    .optional(),
});

export const UssdBody = z.strictObject({
  phoneNumber: z
    .string()
    .transform((v) => v.replace(/[\s()-]/g, ""))
    .refine(
      (v) => /^\+?\d{10,15}$/.test(v),
      "must be a phone number of 10 to 15 digits, optionally starting with +",
    ),
  bankCode: z
    .string()
    .regex(/^[0-9A-Z]{2,10}$/, "must be a bank code from /payment/checkout/banks")
    .optional(),
});

export const SimulateBody = z.strictObject({
  scenario: z.enum(["success", "failed", "abandoned"], {
    message: 'must be "success", "failed" or "abandoned"',
  }),
});

export const SandboxTransferBody = z.strictObject({
  accountNumber: z.string().regex(/^\d{10}$/, "must be a 10-digit account number"),
  amount: amountInput(z.string().max(40, "must be at most 40 characters")),
  sessionId: z
    .string()
    .regex(/^[A-Za-z0-9_.:-]{1,100}$/, "must be 1-100 characters of A-Z a-z 0-9 _ . : -")
    .optional(),
});

/** At most 31 days at a time: past that every deadline of a checkout has long gone. */
export const MAX_CLOCK_ADVANCE_SECONDS = 31 * 24 * 3600;

/** How far a saved card's clock may move in one call (its card's expiry may be a year away). */
export const MAX_AUTHORIZATION_CLOCK_SECONDS = 400 * 24 * 3600;

export const ClockAdvanceBody = z
  .strictObject({
    reference: z
      .string()
      .regex(/^PAY_TXN_[A-Za-z0-9]{1,64}$/, "must be a transaction reference like PAY_TXN_...")
      .optional()
      .meta({ description: "A test payment whose clock moves (its access code, windows and holds)." }),
    authorization: AuthorizationCodeField.optional().meta({
      description:
        "A saved test card whose clock moves instead: a card whose expiry month ends within that time is `expired` from then on.",
    }),
    subscription: z
      .string()
      .regex(/^SUB_[0-9A-Z]{20}$/, "must be a subscription code like SUB_...")
      .optional()
      .meta({
        description:
          "A test subscription whose clock moves instead: every renewal and retry that falls due within that time runs at once, in order.",
      }),
    seconds: z
      .number({ message: "must be a whole number of seconds" })
      .int("must be a whole number of seconds")
      .min(1, "must be at least 1")
      .max(MAX_AUTHORIZATION_CLOCK_SECONDS, `must be at most ${MAX_AUTHORIZATION_CLOCK_SECONDS} (400 days)`),
  })
  .superRefine((v, ctx) => {
    const given = [v.reference, v.authorization, v.subscription].filter((x) => x !== undefined).length;
    if (given !== 1) {
      ctx.addIssue({
        code: "custom",
        path: ["reference"],
        message:
          "give one of reference (a payment), authorization (a saved card) or subscription, not several nor none",
      });
    }
    if (v.reference !== undefined && v.seconds > MAX_CLOCK_ADVANCE_SECONDS) {
      ctx.addIssue({
        code: "custom",
        path: ["seconds"],
        message: `must be at most ${MAX_CLOCK_ADVANCE_SECONDS} (31 days) for a payment`,
      });
    }
  });

export const SandboxAuthorizationBody = z.strictObject({
  reference: z
    .string()
    .regex(/^PAY_TXN_[A-Za-z0-9]{1,64}$/, "must be a transaction reference like PAY_TXN_..."),
  decision: z.enum(["approve", "decline"], { message: 'must be "approve" or "decline"' }),
});

/** A POST without a body (or with `{}`): nothing to say but the access code. */
export const EmptyBody = z.strictObject({});

/** POST /v1/payment/charge-authorization: a saved card charged with the customer away (docs/customers.md). */
export const ChargeAuthorizationBody = z
  .strictObject({
    authorizationCode: AuthorizationCodeField,
    amount: amountInput(z.string().max(40, "must be at most 40 characters")),
    currency: z
      .enum(CURRENCY_CODES, { message: `must be one of ${CURRENCY_CODES.join(", ")}` })
      .default(DEFAULT_CURRENCY),
    reference: z
      .string({ message: "must be a transaction reference like PAY_TXN_..." })
      .regex(
        /^PAY_TXN_[A-Za-z0-9]{1,64}$/,
        "must be PAY_TXN_ followed by 1 to 64 letters and digits (the payment's reference; a new one is made when left out)",
      )
      .optional()
      .meta({
        description:
          "The payment's reference, chosen by the caller (one per charge: an invoice's, an order's). A reference already charged answers that charge as it stands, never a second charge; one another payment has is refused (409 `reference_in_use`). Made when left out.",
      }),
    description: z.string().max(500, "must be at most 500 characters").nullish(),
    metadata: Metadata.nullish(),
  })
  .transform((v, ctx) => {
    const currency = v.currency as Currency;
    const amount = parseAmount(v.amount, currency);
    if (!amount.ok) {
      ctx.addIssue({ code: "custom", path: ["amount"], message: amount.reason });
      return z.NEVER;
    }
    return {
      authorizationCode: v.authorizationCode,
      amountMinor: amount.minor,
      currency,
      reference: v.reference,
      description: v.description ?? undefined,
      metadata: v.metadata ?? undefined,
    };
  });

export type ChargeAuthorizationInput = z.output<typeof ChargeAuthorizationBody>;
