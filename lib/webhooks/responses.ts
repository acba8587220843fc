import { z } from "zod";
import { ModeName, Timestamp } from "@/lib/core/schemas";
import { EVENT_TYPES } from "./event-types";

export const EventType = z.enum(EVENT_TYPES).meta({ id: "EventType", example: "payment.completed" });

/** A webhook endpoint (presentEndpoint); its secret only where it is set or rolled. */
export const EndpointResponse = z
  .object({
    mode: ModeName,
    url: z.string(),
    events: z.array(EventType),
    status: z.enum(["enabled", "disabled"]),
    disabledReason: z.string().nullable(),
    disabledAt: Timestamp.nullable(),
    previousSecretExpiresAt: Timestamp.nullable(),
  })
  .meta({ id: "WebhookEndpoint" });

export const EndpointWithSecretResponse = EndpointResponse.extend({
  secret: z.string().regex(/^whsec_/),
}).meta({ id: "WebhookEndpointWithSecret" });

const Attempt = z.object({
  attempt: z.number().int(),
  trigger: z.enum(["event", "retry", "redeliver"]),
  status: z.enum(["pending", "sending", "succeeded", "failed"]),
  dueAt: Timestamp.nullable(),
  url: z.string().nullable(),
  responseStatus: z.number().int().nullable(),
  latencyMs: z.number().nullable(),
  responseExcerpt: z.string().nullable(),
  error: z.string().nullable(),
  finishedAt: Timestamp.nullable(),
});

/** An event with every delivery attempt (the events endpoints). */
export const EventResponse = z
  .object({
    id: z.string().regex(/^evt_/),
    type: EventType,
    reference: z
      .string()
      .regex(/^(PAY_TXN_[A-Za-z0-9]+|SUB_[0-9A-Z]{20})$/)
      .nullable()
      .meta({
        description:
          "The payment the event is about; for a subscription event before any charge, the subscription's code (SUB_…).",
        example: "PAY_TXN_8Q2M4K7ZP1XW3N5R6T9Y",
      }),
    createdAt: Timestamp,
    delivered: z.boolean(),
    deliveredAt: Timestamp.nullable(),
    payload: z.record(z.string(), z.unknown()),
    attempts: z.array(Attempt),
  })
  .meta({ id: "Event" });

export const EventListResponse = z.object({
  events: z.array(EventResponse),
  nextCursor: z.string().nullable(),
});

export const RedeliverResponse = z.object({
  id: z.string(),
  attempt: z.number().int(),
  status: z.string(),
  joined: z.boolean(),
});
