import { z } from "zod";
import { CHANNELS } from "@/lib/payments/channels";

/** Request schemas of the merchant endpoints (CONTRACT §7). */
const email = z
  .email({ message: "must be a valid email address" })
  .max(254)
  .transform((v) => v.toLowerCase());

export const SignupBody = z.strictObject({
  businessName: z.string().trim().min(1, "must not be empty").max(120, "must be at most 120 characters"),
  email,
  password: z.string().min(10, "must be at least 10 characters").max(200, "must be at most 200 characters"),
});

export const LoginBody = z.strictObject({
  email,
  password: z.string().min(1, "must not be empty").max(200, "must be at most 200 characters"),
});

export const ModeSchema = z.enum(["test", "live"], { message: 'must be "test" or "live"' });

export const RollKeyBody = z.strictObject({ mode: ModeSchema });

export const SettingsBody = z
  .strictObject({
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
    logoUrl: z
      .url({ protocol: /^https?$/, message: "must be an http(s) URL" })
      .max(2048)
      .nullable()
      .optional(),
  })
  .refine(
    (v) => Object.keys(v).length > 0,
    "must set at least one of channels, merchantBearsCost, brandColor, logoUrl",
  );

export const TransactionsQuery = z.strictObject({
  limit: z.coerce.number().int().min(1).max(100).default(20),
  status: z.string().max(40).optional(),
  cursor: z.string().max(200).optional(),
});
