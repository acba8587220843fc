import { z } from "zod";
import { amountInput } from "@/lib/core/schemas";
import { LOCALES } from "@/lib/i18n/locales";
import { parseAmount } from "@/lib/money/amount";
import { CURRENCY_CODES, type Currency, DEFAULT_CURRENCY } from "@/lib/money/currencies";
import { checkDistribution } from "@/lib/money/distribution";

/** Request schemas of the payment endpoints; shared by the route handlers and tests. */

export const MAX_METADATA_BYTES = 16 * 1024;
export const MAX_METADATA_DEPTH = 8;

/** Depth of a JSON value, walked iteratively so no input can exhaust the stack. */
export function jsonDepth(value: unknown): number {
  let max = 0;
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop() as [unknown, number];
    if (node !== null && typeof node === "object") {
      const next = depth + 1;
      if (next > max) max = next;
      if (max > 64) return max;
      for (const child of Object.values(node as Record<string, unknown>)) stack.push([child, next]);
    }
  }
  return max;
}

export const Metadata = z
  .record(z.string().max(100, "keys must be at most 100 characters"), z.unknown())
  // abort: the size check below must never stringify a value too deep to stringify.
  .refine((v) => jsonDepth(v) <= MAX_METADATA_DEPTH, {
    message: `must be at most ${MAX_METADATA_DEPTH} levels deep`,
    abort: true,
  })
  .refine(
    (v) => new TextEncoder().encode(JSON.stringify(v)).length <= MAX_METADATA_BYTES,
    `must be at most ${MAX_METADATA_BYTES} bytes as JSON`,
  );

export const HttpUrl = z
  .url({ protocol: /^https?$/, message: "must be an absolute http(s) URL" })
  .max(2048, "must be at most 2048 characters");

export const Email = z
  .email({ message: "must be a valid email address" })
  .max(254, "must be at most 254 characters");

export const CustomerName = z
  .string()
  .trim()
  .min(1, "must not be empty")
  .max(200, "must be at most 200 characters");

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
