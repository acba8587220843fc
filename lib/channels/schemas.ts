import { z } from "zod";
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

export const BankPaymentBody = z.strictObject({
  bankCode: z.string().regex(/^[0-9A-Z]{2,10}$/, "must be a bank code from /payment/checkout/banks"),
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
  amount: z.string().max(40, "must be at most 40 characters"),
  sessionId: z
    .string()
    .regex(/^[A-Za-z0-9_.:-]{1,100}$/, "must be 1-100 characters of A-Z a-z 0-9 _ . : -")
    .optional(),
});

/** At most 31 days at a time: past that every deadline of a checkout has long gone. */
export const MAX_CLOCK_ADVANCE_SECONDS = 31 * 24 * 3600;

export const ClockAdvanceBody = z.strictObject({
  reference: z
    .string()
    .regex(/^PAY_TXN_[A-Za-z0-9]{1,64}$/, "must be a transaction reference like PAY_TXN_..."),
  seconds: z
    .number({ message: "must be a whole number of seconds" })
    .int("must be a whole number of seconds")
    .min(1, "must be at least 1")
    .max(MAX_CLOCK_ADVANCE_SECONDS, `must be at most ${MAX_CLOCK_ADVANCE_SECONDS} (31 days)`),
});

export const SandboxAuthorizationBody = z.strictObject({
  reference: z
    .string()
    .regex(/^PAY_TXN_[A-Za-z0-9]{1,64}$/, "must be a transaction reference like PAY_TXN_..."),
  decision: z.enum(["approve", "decline"], { message: 'must be "approve" or "decline"' }),
});
