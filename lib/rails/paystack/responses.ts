import { z } from "zod";

/** `data` of POST /v1/rails/paystack/webhook: what became of the event. */
export const PaystackWebhookResponse = z.object({
  received: z.literal(true),
  event: z.string().meta({ example: "charge.success" }),
  /** Seen before (a retry or a replay): answered, not acted on again. */
  duplicate: z.boolean(),
  outcome: z.string().meta({ example: "credited" }),
});
