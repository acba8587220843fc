import { z } from "zod";
import { Timestamp } from "@/lib/core/schemas";

/** A saved card (presentAuthorization): in a customer, verify's `data.authorization`, payment.completed. */
export const AuthorizationResponse = z
  .strictObject({
    authorizationCode: z
      .string()
      .regex(/^AUTH_[0-9A-Z]{20}$/)
      .meta({ example: "AUTH_8Q2M4K7ZP1XW3N5R6T9Y" }),
    brand: z.string().meta({ example: "visa" }),
    last4: z.string().meta({ example: "4242" }),
    expMonth: z.number().int().min(1).max(12).meta({ example: 12 }),
    expYear: z.number().int().meta({ example: 2030 }),
    bank: z.string().nullable().meta({ example: "Paygate Sandbox Bank" }),
    reusable: z.literal(true),
    status: z.enum(["active", "deactivated", "expired"]).meta({
      description:
        "`deactivated`: stopped by the merchant, for good; `expired`: the card's expiry month has ended. Only an `active` one can be charged.",
    }),
    createdAt: Timestamp,
    lastUsedAt: Timestamp.nullable(),
  })
  .meta({ id: "Authorization" });

export const CustomerResponse = z
  .strictObject({
    code: z
      .string()
      .regex(/^CUS_[0-9A-Z]{20}$/)
      .meta({ example: "CUS_4GM7QX2LP9ZR8TN3VB6K" }),
    email: z.string().meta({ example: "customer@example.com" }),
    name: z.string().nullable(),
    phone: z.string().nullable(),
    metadata: z.record(z.string(), z.unknown()),
    createdAt: Timestamp,
    authorizations: z
      .array(AuthorizationResponse)
      .meta({ description: "The customer's saved cards, newest first." }),
  })
  .meta({ id: "Customer" });

export const CustomerListResponse = z.object({
  customers: z.array(CustomerResponse),
  nextCursor: z.string().nullable(),
});
