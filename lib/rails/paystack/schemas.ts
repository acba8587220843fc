import { z } from "zod";

/** Request schemas of POST /v1/rails/paystack/webhook (docs/go-live.md). */
export const PaystackWebhookQuery = z.strictObject({
  /** The merchant connection whose Paystack account sends to this address (the console shows it). */
  connection: z
    .string()
    .regex(/^psc_[0-9A-Za-z]{24}$/, "must be a connection id like psc_... from the console")
    .optional(),
});

/** A Paystack event, `{event, data}`: its fields are Paystack's (lib/rails/paystack/shapes.ts). */
export const PaystackWebhookBody = z
  .looseObject({
    event: z.string({ message: "must be a string" }).min(1, "must not be empty").max(100),
    data: z.looseObject({}),
  })
  .meta({
    description:
      "An event exactly as Paystack sends it, signed with the HMAC-SHA512 of the raw body in `x-paystack-signature`.",
  });
