import { z } from "zod";
import { ModeSchema } from "@/lib/core/schemas";
import { EVENT_TYPES } from "./event-types";
import { urlProblem } from "./guard";

export const WebhookBody = z.strictObject({
  mode: ModeSchema,
  url: z
    .string()
    .max(2048, "must be at most 2048 characters")
    .superRefine((v, ctx) => {
      const problem = urlProblem(v);
      if (problem) ctx.addIssue({ code: "custom", message: problem });
    }),
  events: z
    .array(z.enum(EVENT_TYPES, { message: `must be one of ${EVENT_TYPES.join(", ")}` }))
    .min(1, "must subscribe to at least one event")
    .optional(),
});

export const WebhookQuery = z.strictObject({ mode: ModeSchema.optional() });

export const RollWebhookSecretBody = z.strictObject({ mode: ModeSchema });

export const EventsQuery = z.strictObject({
  mode: ModeSchema.optional(),
  type: z.enum(EVENT_TYPES, { message: `must be one of ${EVENT_TYPES.join(", ")}` }).optional(),
  reference: z
    .string()
    .regex(/^PAY_TXN_[A-Za-z0-9]{1,64}$/, "must be a transaction reference")
    .optional(),
  delivered: z.enum(["true", "false"], { message: 'must be "true" or "false"' }).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(20),
  cursor: z.string().max(200).optional(),
});

/** GET /events (secret key): the key's own mode, so no `mode`. */
export const KeyEventsQuery = EventsQuery.omit({ mode: true });

export const EventParams = z.strictObject({
  id: z.string().regex(/^evt_[0-9A-Za-z]{24}$/, "must be an event id like evt_..."),
});
