import { z } from "zod";
import { amountInput } from "@/lib/core/schemas";

/** Request schemas of the refunds endpoints (docs/refunds.md). */
export const REFUND_STATUSES = ["pending", "processed", "failed"] as const;
export type RefundStatusName = (typeof REFUND_STATUSES)[number];

const Reference = z
  .string({ message: "must be a transaction reference like PAY_TXN_... from initialize" })
  .regex(/^PAY_TXN_[A-Za-z0-9]{1,64}$/, "must be a transaction reference like PAY_TXN_... from initialize");

/** `rfd_` + base62; refunds recorded before the refunds API have `rfd_` + a UUID. */
export const REFUND_ID = /^rfd_[A-Za-z0-9-]{1,64}$/;

export const CreateRefundBody = z.strictObject({
  reference: Reference,
  amount: amountInput(
    z
      .string({ message: 'must be a string in major units, e.g. "2500.00"' })
      .max(40, "must be at most 40 characters"),
  ).optional(),
  reason: z
    .string({ message: "must be a string" })
    .trim()
    .min(1, "must not be empty")
    .max(200, "must be at most 200 characters")
    .optional(),
});

export const RefundsQuery = z.strictObject({
  reference: Reference.optional(),
  status: z.enum(REFUND_STATUSES, { message: `must be one of ${REFUND_STATUSES.join(", ")}` }).optional(),
  limit: z.coerce
    .number({ message: "must be a whole number from 1 to 100" })
    .int("must be a whole number from 1 to 100")
    .min(1, "must be a whole number from 1 to 100")
    .max(100, "must be a whole number from 1 to 100")
    .default(20),
  cursor: z.string().max(200, "must be at most 200 characters").optional(),
});

export const RefundParams = z.strictObject({
  id: z.string().regex(REFUND_ID, "must be a refund id like rfd_... from POST /v1/refunds"),
});

export const SandboxRefundBody = z.strictObject({
  outcome: z.enum(["processed", "failed"], { message: 'must be "processed" or "failed"' }),
});
