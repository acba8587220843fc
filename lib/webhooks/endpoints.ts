import { auditContext } from "@/lib/audit/record";
import { defineEndpoint } from "@/lib/core/endpoint";
import { deploymentMode } from "@/lib/env";
import { getWebhookEndpoint } from "./get-webhook-endpoint";
import { getEvent, listEvents } from "./list-events";
import { redeliverEvent } from "./redeliver-event";
import {
  EndpointResponse,
  EndpointWithSecretResponse,
  EventListResponse,
  EventResponse,
  RedeliverResponse,
} from "./responses";
import { rollWebhookSecret } from "./roll-webhook-secret";
import {
  EventParams,
  EventsQuery,
  KeyEventsQuery,
  RollWebhookSecretBody,
  WebhookBody,
  WebhookQuery,
} from "./schemas";
import { setWebhookEndpoint } from "./set-webhook-endpoint";

/** Events (secret key), and the webhook endpoint and its deliveries (session token). */
export const webhooksEndpoints = {
  events: defineEndpoint({
    method: "GET",
    path: "/v1/events",
    tag: "Events",
    summary: "Events of the key's mode, with their delivery attempts",
    auth: "secret_key",
    query: KeyEventsQuery,
    status: 200,
    response: EventListResponse,
    handler: ({ auth, query }) => listEvents({ merchantId: auth.merchantId, mode: auth.mode, ...query }),
  }),
  event: defineEndpoint({
    method: "GET",
    path: "/v1/events/{id}",
    tag: "Events",
    summary: "One event, with its delivery attempts",
    auth: "secret_key",
    params: EventParams,
    status: 200,
    response: EventResponse,
    errors: ["event_not_found"],
    handler: ({ auth, params }) => getEvent({ merchantId: auth.merchantId, mode: auth.mode, id: params.id }),
  }),
  getEndpoint: defineEndpoint({
    method: "GET",
    path: "/v1/merchants/webhook",
    tag: "Webhooks",
    summary: "The webhook endpoint of a mode (null when none)",
    auth: "session",
    permission: "developers.read",
    query: WebhookQuery,
    status: 200,
    response: EndpointResponse.nullable(),
    handler: ({ auth, query }) =>
      getWebhookEndpoint({ merchantId: auth.merchantId, mode: query.mode ?? deploymentMode() }),
  }),
  setEndpoint: defineEndpoint({
    method: "PUT",
    path: "/v1/merchants/webhook",
    tag: "Webhooks",
    summary: "Set the webhook endpoint of a mode; answers its signing secret",
    auth: "session",
    permission: "webhooks.write",
    body: WebhookBody,
    status: 200,
    response: EndpointWithSecretResponse,
    example: { mode: "test", url: "https://shop.example/webhooks/paygate" },
    handler: ({ auth, body, clientAddress }) =>
      setWebhookEndpoint({ merchantId: auth.merchantId, ...body, audit: auditContext(auth, clientAddress) }),
  }),
  rollSecret: defineEndpoint({
    method: "POST",
    path: "/v1/merchants/webhook/roll-secret",
    tag: "Webhooks",
    summary: "A new signing secret; the old one signs too for 24 hours",
    auth: "session",
    permission: "webhooks.write",
    body: RollWebhookSecretBody,
    status: 200,
    response: EndpointWithSecretResponse,
    errors: ["invalid_state"],
    example: { mode: "test" },
    handler: ({ auth, body, clientAddress }) =>
      rollWebhookSecret({
        merchantId: auth.merchantId,
        mode: body.mode,
        audit: auditContext(auth, clientAddress),
      }),
  }),
  merchantEvents: defineEndpoint({
    method: "GET",
    path: "/v1/merchants/events",
    tag: "Webhooks",
    summary: "Events with every delivery attempt",
    auth: "session",
    permission: "developers.read",
    query: EventsQuery,
    status: 200,
    response: EventListResponse,
    handler: ({ auth, query }) =>
      listEvents({ merchantId: auth.merchantId, ...query, mode: query.mode ?? auth.mode }),
  }),
  redeliver: defineEndpoint({
    method: "POST",
    path: "/v1/merchants/events/{id}/redeliver",
    tag: "Webhooks",
    summary: "Send an event again now, with the same webhook-id",
    auth: "session",
    permission: "webhooks.write",
    params: EventParams,
    status: 202,
    response: RedeliverResponse,
    errors: ["event_not_found", "invalid_state"],
    handler: ({ auth, params }) =>
      redeliverEvent({ merchantId: auth.merchantId, mode: auth.mode, eventId: params.id }),
  }),
};
