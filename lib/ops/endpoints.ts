import { z } from "zod";
import { defineEndpoint } from "@/lib/core/endpoint";
import { checkHealth } from "./check-health";
import { HealthResponse, PingResponse } from "./responses";

/**
 * The service's own doors. Ping, the document and the embedded checkout's scripts build their own `Response`
 * (a constant, a cached document, a script with an ETag): their routes serve them (lib/http/routes.ts `serve`).
 */
export const opsEndpoints = {
  ping: defineEndpoint({
    method: "GET",
    path: "/v1/ping",
    tag: "Service",
    summary: "Liveness: a constant answer",
    auth: "none",
    status: 200,
    response: PingResponse,
  }),
  openapi: defineEndpoint({
    method: "GET",
    path: "/v1/openapi.json",
    tag: "Service",
    summary: "This document",
    auth: "none",
    status: 200,
    response: z.looseObject({ openapi: z.literal("3.1.0") }),
    raw: true,
  }),
  inlineScript: defineEndpoint({
    method: "GET",
    path: "/v1/inline.js",
    tag: "Service",
    summary: "The embedded checkout's script, a classic script: window.Paygate.open(accessCode, {callbacks})",
    description:
      "docs/guides/embed-the-checkout.md. Cacheable (ETag), its version in its first line; the checkout opens only over pages whose origin the merchant lists in `embedOrigins` (PUT /v1/merchants/settings).",
    auth: "none",
    status: 200,
    response: z.string(),
    raw: true,
    contentType: "text/javascript",
    notModified: true,
  }),
  inlineModule: defineEndpoint({
    method: "GET",
    path: "/v1/inline.mjs",
    tag: "Service",
    summary: "The same script as an ES module: import { open } from …/v1/inline.mjs",
    auth: "none",
    status: 200,
    response: z.string(),
    raw: true,
    contentType: "text/javascript",
    notModified: true,
  }),
  metrics: defineEndpoint({
    method: "GET",
    path: "/v1/metrics",
    tag: "Service",
    summary:
      "This instance's metrics in Prometheus' text format (METRICS_TOKEN or METRICS_ALLOWED_ADDRESSES)",
    description:
      'For the operator\'s Prometheus (docs/deploy.md "Metrics"): requests by endpoint and status with latency histograms, background jobs, the webhook backlog, the outboxes, rate-limit refusals, the database pool, memory and event-loop lag. Open with `Authorization: Bearer <METRICS_TOKEN>`, or from an address in METRICS_ALLOWED_ADDRESSES.',
    auth: "none",
    status: 200,
    response: z.string(),
    raw: true,
    contentType: "text/plain",
    errors: ["invalid_metrics_token", "address_not_allowed"],
  }),
  health: defineEndpoint({
    method: "GET",
    path: "/v1/health",
    tag: "Service",
    summary: "Readiness: 200 when this instance reaches its database, 503 when not or while it shuts down",
    auth: "none",
    status: 200,
    response: HealthResponse,
    handler: () => checkHealth(),
  }),
};
