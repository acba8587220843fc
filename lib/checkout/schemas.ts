import { z } from "zod";
import { amountInput } from "@/lib/core/schemas";

/** Request schemas of the checkout page's own test-mode doors (app/v1/payment/checkout/sandbox/*). */

export const CheckoutSandboxTransferBody = z.strictObject({
  /** Major units as a string; omitted → exactly the amount the open virtual account expects. */
  amount: amountInput(z.string().max(40, "must be at most 40 characters")).optional(),
});

export const CheckoutSandboxAuthorizeBody = z.strictObject({
  decision: z.enum(["approve", "decline"], { message: 'must be "approve" or "decline"' }),
});
