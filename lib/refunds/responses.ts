import { z } from "zod";
import { Money, Reference, Timestamp } from "@/lib/core/schemas";
import { CurrencyCode } from "@/lib/payments/vocabulary";
import { REFUND_STATUSES } from "./schemas";

/** A refund (presentRefund), as the refunds endpoints and the refund.* events carry it (docs/refunds.md). */
export const RefundResponse = z
  .strictObject({
    id: z.string().regex(/^rfd_/).meta({ example: "rfd_4Gm7Qx2Lp9Zr8Tn3Vb6Ky1Wd" }),
    reference: Reference.nullable(),
    amount: Money,
    currency: CurrencyCode,
    status: z.enum(REFUND_STATUSES),
    reason: z.string().nullable().meta({ example: "requested_by_customer" }),
    type: z.enum(["merchant", "automatic"]),
    failureReason: z.string().nullable(),
    createdAt: Timestamp,
    processedAt: Timestamp.nullable(),
  })
  .meta({ id: "Refund" });

export const RefundListResponse = z.object({
  refunds: z.array(RefundResponse),
  nextCursor: z.string().nullable(),
});
