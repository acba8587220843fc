import client from "prom-client";
import { processState } from "@/lib/process-state";

/**
 * The process's own metrics, in Prometheus' format (GET /v1/metrics, lib/ops/scrape-metrics.ts; docs/deploy.md
 * "Metrics"). They live in prom-client's global registry, which a cluster's primary sums over its workers
 * (server.mjs), so a scrape of an instance counts every process of it. Made once per process (processState):
 * Next gives each bundle of the app its own copy of a module, and a metric registered twice is an error.
 * Figures the database holds (the outbox, the webhook backlog) are the same seen from any process: those are
 * read at scrape time instead (lib/ops/scrape-metrics.ts).
 */
export const metrics = () =>
  processState("metrics", () => {
    const register = client.register;
    // Memory, CPU, handles and the event loop's lag (nodejs_eventloop_lag_seconds), under their usual names.
    client.collectDefaultMetrics({ register });
    return {
      register,
      /** Every request the front answered (server.mjs), by the endpoint's path template, method and status. */
      httpRequests: new client.Counter({
        name: "paygate_http_requests_total",
        help: "HTTP requests answered, by endpoint (the API path template, or page, asset, other), method and status.",
        labelNames: ["endpoint", "method", "status"] as const,
        registers: [register],
      }),
      httpDuration: new client.Histogram({
        name: "paygate_http_request_duration_seconds",
        help: "Time from a request's arrival at the front to the end of its answer, by endpoint and method.",
        labelNames: ["endpoint", "method"] as const,
        buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
        registers: [register],
      }),
      rateLimitRefusals: new client.Counter({
        name: "paygate_rate_limit_refusals_total",
        help: "Requests refused 429 rate_limited (lib/security/rate-limit.ts), by door: the API's or the console's (the endpoint is in paygate_http_requests_total's status 429).",
        labelNames: ["door"] as const,
        registers: [register],
      }),
      webhookFailures: new client.Counter({
        name: "paygate_webhook_delivery_failures_total",
        help: "Webhook delivery attempts that failed (no answer, a timeout, or a status other than 2xx).",
        registers: [register],
      }),
    };
  });

/** What the front (server.mjs) labels a request with: the endpoint that served it, set while it runs. */
type RequestLabel = { endpoint?: string };

const REQUEST_LABEL = Symbol.for("paygate.request-label");

/**
 * Name the endpoint serving the request in flight, for paygate_http_requests_total. The front runs each request
 * in an AsyncLocalStorage of its own (server.mjs) and reads the name back once the answer has gone; outside the
 * front (a bare `next start`, the unit tests) there is none and this does nothing.
 */
export function labelRequest(endpoint: string): void {
  const storage = (globalThis as { [REQUEST_LABEL]?: { getStore(): RequestLabel | undefined } })[
    REQUEST_LABEL
  ];
  const label = storage?.getStore();
  if (label) label.endpoint = endpoint;
}
