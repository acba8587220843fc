import { z } from "zod";
import { Money, Timestamp } from "@/lib/core/schemas";
import { ChannelName, CurrencyCode } from "@/lib/payments/vocabulary";

const Field = z.object({
  name: z.string(),
  label: z.string(),
  type: z.string().meta({ example: "text" }),
  required: z.boolean().optional(),
  options: z.array(z.string()).optional(),
});

/** A payment link as its merchant sees it (presentLink). */
export const LinkResponse = z
  .object({
    id: z.string(),
    slug: z.string().meta({ example: "summer-tote" }),
    paymentLinkUrl: z.url(),
    title: z.string(),
    description: z.string().nullable(),
    amount: Money.nullable(),
    minAmount: Money.nullable(),
    maxAmount: Money.nullable(),
    currency: CurrencyCode,
    channels: z.array(ChannelName),
    redirectUrl: z.string().nullable(),
    feeBearer: z.enum(["customer", "merchant"]),
    metadata: z.object({ fields: z.array(Field) }),
    active: z.boolean(),
    expiresAt: Timestamp.nullable(),
    usageLimit: z.number().int().nullable(),
    usageCount: z.number().int(),
    createdAt: Timestamp,
  })
  .meta({ id: "PaymentLink" });

/** A page of links, newest first, and the cursor of the next page (null on the last), like every list. */
export const LinkListResponse = z.object({ links: z.array(LinkResponse), nextCursor: z.string().nullable() });

/** What a link's public start page shows (presentDisplay): nothing private. */
export const LinkDisplayResponse = z
  .object({
    title: z.string(),
    description: z.string().nullable(),
    amount: Money.nullable(),
    minAmount: Money.nullable(),
    maxAmount: Money.nullable(),
    currency: CurrencyCode,
    fields: z.array(Field),
    merchantName: z.string(),
    brandColor: z.string().nullable(),
    logoUrl: z.string().nullable(),
    active: z.boolean(),
    unavailableReason: z.string().nullable(),
    /** What the start page tells the customer about fees before checkout: one rule per group of channels. */
    pricing: z.object({
      merchantBearsCost: z.boolean(),
      groups: z.array(
        z.object({
          channels: z.array(ChannelName),
          rule: z.object({
            percent: z.string().meta({ example: "1.5" }),
            flat: Money,
            flatWaivedBelow: Money,
            cap: Money.nullable(),
          }),
        }),
      ),
    }),
  })
  .meta({ id: "PaymentLinkDisplay" });
