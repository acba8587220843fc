import { z } from "zod";
import { amountInput } from "@/lib/core/schemas";
import { CURRENCY_CODES, DEFAULT_CURRENCY } from "@/lib/money/currencies";
import { CHANNELS } from "@/lib/payments/channel-list";
import { CustomerName, Email, HttpUrl } from "@/lib/payments/schemas";

/** Request schemas of the payment link endpoints (docs/api.md). */

export const FIELD_TYPES = ["text", "email", "phone", "number", "select"] as const;

const FieldName = z
  .string()
  .regex(
    /^[A-Za-z][A-Za-z0-9_]{0,39}$/,
    "must start with a letter and use only letters, digits and _ (at most 40)",
  );

export const FormField = z
  .strictObject({
    name: FieldName,
    label: z.string().trim().min(1, "must not be empty").max(120, "must be at most 120 characters"),
    type: z.enum(FIELD_TYPES, { message: `must be one of ${FIELD_TYPES.join(", ")}` }),
    required: z.boolean().optional(),
    options: z
      .array(z.string().trim().min(1, "must not be empty").max(120, "must be at most 120 characters"))
      .min(1, "must list at least one option")
      .max(50, "must list at most 50 options")
      .optional(),
  })
  .superRefine((f, ctx) => {
    if (f.type === "select" && !f.options)
      ctx.addIssue({ code: "custom", path: ["options"], message: "is required for a select field" });
    if (f.type !== "select" && f.options)
      ctx.addIssue({ code: "custom", path: ["options"], message: "is only for select fields" });
  });

export type FormFieldInput = z.output<typeof FormField>;

const MajorAmount = amountInput(z.string().max(40, "must be at most 40 characters"));

export const CreateLinkBody = z.strictObject({
  title: z.string().trim().min(1, "must not be empty").max(120, "must be at most 120 characters"),
  description: z.string().trim().max(1000, "must be at most 1000 characters").nullish(),
  amount: MajorAmount.nullish(),
  minAmount: MajorAmount.nullish(),
  maxAmount: MajorAmount.nullish(),
  currency: z
    .enum(CURRENCY_CODES, { message: `must be one of ${CURRENCY_CODES.join(", ")}` })
    .default(DEFAULT_CURRENCY),
  channels: z
    .array(z.enum(CHANNELS, { message: `must be one of ${CHANNELS.join(", ")}` }))
    .min(1, "must offer at least one channel")
    .refine((l) => new Set(l).size === l.length, "must not repeat a channel")
    .optional(),
  redirectUrl: HttpUrl.nullish(),
  feeBearer: z
    .enum(["customer", "merchant"], { message: 'must be "customer" or "merchant"' })
    .default("customer"),
  metadata: z
    .strictObject({
      fields: z
        .array(FormField)
        .max(20, "must have at most 20 fields")
        .refine((l) => new Set(l.map((f) => f.name)).size === l.length, "must not repeat a field name"),
    })
    .nullish(),
  expiresAt: z.iso.datetime({ offset: true, message: "must be an ISO 8601 date-time" }).nullish(),
  usageLimit: z.number().int("must be a whole number").min(1, "must be at least 1").max(1_000_000).nullish(),
  active: z.boolean().default(true),
});

export const UpdateLinkBody = z
  .strictObject({
    title: z
      .string()
      .trim()
      .min(1, "must not be empty")
      .max(120, "must be at most 120 characters")
      .optional(),
    description: z.string().trim().max(1000, "must be at most 1000 characters").nullable().optional(),
    redirectUrl: HttpUrl.nullable().optional(),
    active: z.boolean().optional(),
    expiresAt: z.iso
      .datetime({ offset: true, message: "must be an ISO 8601 date-time" })
      .nullable()
      .optional(),
    usageLimit: z
      .number()
      .int("must be a whole number")
      .min(1, "must be at least 1")
      .max(1_000_000)
      .nullable()
      .optional(),
  })
  .refine(
    (v) => Object.keys(v).length > 0,
    "must change at least one of title, description, redirectUrl, active, expiresAt, usageLimit",
  );

export const SlugParams = z.strictObject({
  slug: z
    .string()
    .regex(
      /^[a-z0-9](?:[a-z0-9-]{0,78}[a-z0-9])?$/,
      "must be a payment link slug (lowercase letters, digits, -)",
    ),
});

export const PayLinkBody = z.strictObject({
  amount: MajorAmount.nullish(),
  email: Email.nullish(),
  customerName: CustomerName.nullish(),
  fields: z
    .record(z.string().max(40), z.union([z.string().max(500, "must be at most 500 characters"), z.number()]))
    .nullish(),
});

export const LinksQuery = z.strictObject({
  limit: z.coerce.number().int().min(1).max(100).default(20),
  active: z.enum(["true", "false"], { message: 'must be "true" or "false"' }).optional(),
  cursor: z.string().max(200, "must be at most 200 characters").optional(),
});
