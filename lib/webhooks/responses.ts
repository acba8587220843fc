import { z } from "zod";
import { ModeName, Reference, Timestamp } from "@/lib/core/schemas";
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
    reference: Reference.nullable(),
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
