import { z } from "zod";
import { CustomerName, Email, Metadata } from "@/lib/core/schemas";
import { AUTHORIZATION_CODE, CUSTOMER_CODE } from "./codes";

/** Request schemas of the customers and saved-card endpoints (docs/customers.md). */

const Phone = z
  .string({ message: "must be a string" })
  .max(40, "must be at most 40 characters")
  .transform((v) => v.replace(/[\s()-]/g, ""))
  .refine(
    (v) => /^\+?\d{10,15}$/.test(v),
    "must be a phone number of 10 to 15 digits, optionally starting with +",
  );

export const CreateCustomerBody = z.strictObject({
  email: Email,
  name: CustomerName.nullish(),
  phone: Phone.nullish(),
  metadata: Metadata.nullish(),
});

/** `null` clears a field (docs/decisions/001-unknown-fields-and-null.md); a field left out is unchanged. */
export const UpdateCustomerBody = z.strictObject({
  name: CustomerName.nullable().optional(),
  phone: Phone.nullable().optional(),
  metadata: Metadata.nullable().optional(),
});

export type CustomerPatch = z.output<typeof UpdateCustomerBody>;

export const CustomersQuery = z.strictObject({
  email: z
    .string()
    .max(254, "must be at most 254 characters")
    .optional()
    .meta({ description: "Only the customer of this email (compared without regard to case)." }),
  limit: z.coerce
    .number({ message: "must be a whole number from 1 to 100" })
    .int("must be a whole number from 1 to 100")
    .min(1, "must be a whole number from 1 to 100")
    .max(100, "must be a whole number from 1 to 100")
    .default(20),
  cursor: z.string().max(200, "must be at most 200 characters").optional(),
});

export const CustomerParams = z.strictObject({
  code: z.string().regex(CUSTOMER_CODE, "must be a customer code like CUS_... from POST /v1/customers"),
});

export const AuthorizationParams = z.strictObject({
  code: z.string().regex(AUTHORIZATION_CODE, "must be an authorization code like AUTH_... from a saved card"),
});

/** An authorization code in a body (charge-authorization, the test clock). */
export const AuthorizationCodeField = z
  .string({ message: "must be an authorization code like AUTH_... from a saved card" })
  .regex(AUTHORIZATION_CODE, "must be an authorization code like AUTH_... from a saved card");

/** The console's customer list: part of an email to search for, and the page. */
export const ConsoleCustomersQuery = z.strictObject({
  q: z.string().trim().max(254, "must be at most 254 characters").optional(),
  cursor: z.string().max(200, "must be at most 200 characters").optional(),
});
