import { z } from "zod";
import { ModeName, Timestamp } from "@/lib/core/schemas";

export const AuditLogQuery = z.strictObject({
  actor: z
    .string()
    .trim()
    .min(1, "must not be empty")
    .max(254, "must be at most 254 characters")
    .optional()
    .meta({ description: "A member's email, or a secret key's last four characters." }),
  action: z
    .string()
    .regex(/^[a-z_]+(\.[a-z_]+)?$/, "must be an action such as refund.create, or its object such as team")
    .max(60, "must be at most 60 characters")
    .optional(),
  limit: z.coerce
    .number({ message: "must be a whole number from 1 to 100" })
    .int("must be a whole number from 1 to 100")
    .min(1, "must be a whole number from 1 to 100")
    .max(100, "must be a whole number from 1 to 100")
    .default(50),
  cursor: z.string().max(200, "must be at most 200 characters").optional(),
});

export const AuditEntry = z.object({
  id: z.string(),
  at: Timestamp,
  mode: ModeName,
  action: z.string().meta({ example: "refund.create" }),
  target: z.string().nullable(),
  actor: z.discriminatedUnion("type", [
    z.object({ type: z.literal("member"), email: z.email() }),
    z.object({ type: z.literal("secret_key"), last4: z.string() }),
  ]),
  address: z.string().nullable(),
});

export const AuditLogResponse = z.object({ entries: z.array(AuditEntry), nextCursor: z.string().nullable() });
