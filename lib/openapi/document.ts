import { z } from "zod";
import {
  createDocument,
  type ZodOpenApiOperationObject,
  type ZodOpenApiPathsObject,
  type ZodOpenApiResponseObject,
} from "zod-openapi";
import { type Credential, declaredErrors, type Endpoint } from "@/lib/core/endpoint";
import { ERROR_STATUS, type ErrorCode } from "@/lib/core/errors";
import { ModeName, Timestamp } from "@/lib/core/schemas";
import { ENDPOINTS } from "@/lib/endpoints";
import { EVENT_TYPES } from "@/lib/webhooks/event-types";
import { ERROR_MESSAGES, successExamples } from "./examples";
import { webhookBody } from "./webhook-events";

/**
 * The OpenAPI 3.1 document of the API (GET /v1/openapi.json), generated from the endpoint registry
 * (lib/endpoints.ts: each area's lib/<area>/endpoints.ts, the very definitions the routes run) through
 * zod-openapi (zod 4's own JSON Schema output with OpenAPI's components, parameters and webhooks on top).
 * Never written by hand.
 */

const SECURITY: Record<Exclude<Credential, "none">, Array<Record<string, string[]>>> = {
  secret_key: [{ secretKey: [] }],
  access_code: [{ accessCode: [] }],
  session: [{ sessionToken: [] }],
};

const Failure = (codes: readonly ErrorCode[]) =>
  z.strictObject({
    status: z.literal("failed"),
    error: z.enum(codes as [ErrorCode, ...ErrorCode[]]),
    message: z
      .string()
      .meta({ description: "What went wrong, naming the field and the rule where there is one." }),
  });

const Success = (data: z.ZodType) => z.strictObject({ status: z.literal("success"), data });

const IdempotencyHeader = z.strictObject({
  "idempotency-key": z.string().max(255).optional().meta({
    description:
      "A retry with the same key answers the first result instead of doing the work again (24 hours; POST only).",
    example: "order-1042-attempt-1",
  }),
});

const IfNoneMatchHeader = z.strictObject({
  "if-none-match": z.string().max(1024).optional().meta({
    description: "The ETag of the copy you hold: 304 with no body while it is current.",
  }),
});

function operationId(op: Endpoint): string {
  const words = op.path
    .replace(/^\/v1\//, "")
    .replace(/\.json$/, "")
    .replace(/\./g, "-")
    .split(/[/-]/)
    .map((w) => (w.startsWith("{") ? `by-${w.slice(1, -1)}` : w))
    .flatMap((w) => w.split("-"))
    .filter(Boolean);
  return [op.method.toLowerCase(), ...words]
    .map((w, i) => (i === 0 ? w : w[0]?.toUpperCase() + w.slice(1)))
    .join("");
}

function toOperation(op: Endpoint, examples: Record<string, unknown>): ZodOpenApiOperationObject {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of declaredErrors(op)) {
    const status = ERROR_STATUS[code];
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  const data = examples[`${op.method} ${op.path}`];
  const responses: Record<string, ZodOpenApiResponseObject> = {
    [String(op.status)]: {
      description: op.summary,
      ...(op.responseHeaders && { headers: op.responseHeaders }),
      content: {
        [op.contentType ?? "application/json"]: {
          schema: op.raw ? op.response : Success(op.response),
          ...(data !== undefined && { example: op.raw ? data : { status: "success", data } }),
        },
      },
    },
  };
  if (op.alsoStatus) {
    responses[String(op.alsoStatus.status)] = {
      description: op.alsoStatus.description,
      content: {
        "application/json": {
          schema: Success(op.response),
          ...(data !== undefined && { example: { status: "success", data } }),
        },
      },
    };
  }
  for (const [status, codes] of [...byStatus].sort(([a], [b]) => a - b)) {
    responses[String(status)] = {
      description: `Failure: ${codes.map((c) => `\`${c}\``).join(", ")}`,
      content: {
        "application/json": {
          schema: Failure(codes),
          examples: Object.fromEntries(
            codes.map((code) => [
              code,
              { summary: code, value: { status: "failed", error: code, message: ERROR_MESSAGES[code] } },
            ]),
          ),
        },
      },
    };
  }
  const header =
    op.method === "POST" && op.auth !== "none"
      ? IdempotencyHeader
      : op.notModified
        ? IfNoneMatchHeader
        : undefined;
  if (op.notModified)
    responses["304"] = {
      description: "Not modified: the copy whose ETag was sent in If-None-Match is current",
    };
  return {
    operationId: operationId(op),
    tags: [op.tag],
    summary: op.summary,
    ...(op.description && { description: op.description }),
    security: op.auth === "none" ? [] : SECURITY[op.auth],
    ...((op.params || op.query || header) && {
      requestParams: {
        ...(op.params && { path: op.params }),
        ...(op.query && { query: op.query }),
        ...(header && { header }),
      },
    }),
    ...(op.body && {
      requestBody: {
        required: true,
        content: {
          "application/json": {
            schema: op.body,
            ...(op.example !== undefined && { example: op.example }),
          },
        },
      },
    }),
    responses: responses as ZodOpenApiOperationObject["responses"],
  };
}

const WebhookHeaders = z.strictObject({
  "webhook-id": z.string().meta({
    description: "The event's id (evt_…): the same on every delivery of it.",
    example: "evt_3JcKp0Wq8XvN2mTz6RbL4hYd",
  }),
  "webhook-timestamp": z
    .string()
    .meta({ description: "Unix seconds when this delivery was signed.", example: "1795516212" }),
  "webhook-signature": z.string().meta({
    description:
      "Standard Webhooks: `v1,<base64 HMAC-SHA256 of id.timestamp.body>`, space-separated while a rolled secret still signs.",
    example: "v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=",
  }),
});

/** The console's "Send a test event" (lib/webhooks/send-test-event.ts): signed like an event, never retried. */
const TestEventBody = z.strictObject({
  event: z.literal("webhook.test"),
  data: z.strictObject({
    message: z.string().meta({ example: "A test event from the Paygate console. No payment is behind it." }),
    mode: ModeName,
  }),
  timestamp: Timestamp,
});

function webhooks() {
  const test = {
    "webhook.test": {
      post: {
        operationId: "webhookWebhookTest",
        summary: "Test event webhook.test",
        security: [],
        description:
          'Sent once when the merchant presses "Send a test event" in the console: signed like every event (same headers and secret), never retried, logged only in the console\'s answer. No payment is behind it: acknowledge it and do nothing.',
        requestParams: { header: WebhookHeaders },
        requestBody: { content: { "application/json": { schema: TestEventBody } } },
        responses: { "200": { description: "Received; any 2xx will do." } },
      },
    },
  };
  return Object.fromEntries([
    ...Object.entries(test),
    ...EVENT_TYPES.map((type) => [
      type,
      {
        post: {
          operationId: `webhook${type
            .split(/[._]/)
            .map((w) => w[0]?.toUpperCase() + w.slice(1))
            .join("")}`,
          summary: `Event ${type}`,
          security: [],
          description:
            "Sent to the merchant's webhook endpoint, signed with its whsec_ secret (Standard Webhooks). Answer 2xx within 15 s; anything else is retried with back-off (5 s, 5 min, 30 min … 24 h).",
          requestParams: { header: WebhookHeaders },
          requestBody: {
            content: {
              "application/json": {
                schema: webhookBody(type),
              },
            },
          },
          responses: { "200": { description: "Received; any 2xx will do." } },
        },
      },
    ]),
  ]);
}

function paths(): ZodOpenApiPathsObject {
  const out: ZodOpenApiPathsObject = {};
  const examples = successExamples();
  for (const op of ENDPOINTS)
    out[op.path] = { ...out[op.path], [op.method.toLowerCase()]: toOperation(op, examples) };
  return out;
}

let cached: { key: string; document: ReturnType<typeof createDocument> } | undefined;

/** A deployment of the API (docs/deploy.md): staging takes test keys only, production live keys only. */
export type Deployment = "staging" | "production";

const DEPLOYMENT_DESCRIPTION: Record<Deployment, string> = {
  staging: "Staging: test keys (sk_test_…) only; the sandbox calls work here.",
  production: "Production: live keys (sk_live_…) only; real money.",
};

/**
 * The two servers of the document (docs/api.md): the deployment serving it at `baseUrl`, and the other one
 * as a URL template whose host the reader fills in (one deployment does not know the other's address).
 */
function servers(baseUrl: string, deployment: Deployment) {
  const other: Deployment = deployment === "staging" ? "production" : "staging";
  const self = { url: baseUrl, description: `${DEPLOYMENT_DESCRIPTION[deployment]} This deployment.` };
  const placeholder = {
    url: `https://{${other}Host}`,
    description: `${DEPLOYMENT_DESCRIPTION[other]} Its host is the one your Paygate operator gave you.`,
    variables: {
      [`${other}Host`]: {
        default: other === "production" ? "pay.example.com" : "staging.pay.example.com",
        description: `The ${other} deployment's host name.`,
      },
    },
  };
  return deployment === "staging" ? [self, placeholder] : [placeholder, self];
}

/** The document, served by the `deployment` at `baseUrl`. */
export function openApiDocument(baseUrl: string, deployment: Deployment = "staging") {
  const key = `${deployment} ${baseUrl}`;
  if (cached?.key === key) return cached.document;
  const document = createDocument({
    openapi: "3.1.0",
    info: {
      title: "Paygate API",
      version: "1.0",
      description:
        'Collect payments by card, bank transfer, bank payment and USSD through a hosted checkout. Every answer is `{status, data}` or `{status: "failed", error, message}`; amounts are decimal strings, never floats. Guides: docs/ in the repository.',
    },
    servers: servers(baseUrl, deployment),
    tags: [
      { name: "Payments", description: "The merchant's server: create and verify payments (secret key)." },
      { name: "Checkout", description: "The hosted page's calls (access code)." },
      { name: "Sandbox", description: "Test mode only: produce every outcome on purpose." },
      {
        name: "Refunds",
        description: "Give money back: all or part of a paid payment; automatic refunds too.",
      },
      { name: "Events", description: "Events and their deliveries, read with the secret key." },
      { name: "Merchants", description: "Accounts, keys and settings (session token)." },
      { name: "Webhooks", description: "The webhook endpoint and its deliveries (session token)." },
      { name: "Payment links", description: "Shareable hosted start pages." },
      { name: "Processors", description: "Events from the payment processors behind live mode (Paystack)." },
      { name: "Service", description: "Liveness and readiness." },
    ],
    components: {
      securitySchemes: {
        secretKey: {
          type: "apiKey",
          in: "header",
          name: "x-api-key",
          description:
            "The merchant's secret key, sk_test_… or sk_live_…, in `x-api-key`. `Authorization: Bearer <secret key>` is accepted too; the document names one scheme per credential so a client can tell the secret key from the session token.",
        },
        accessCode: {
          type: "apiKey",
          in: "header",
          name: "x-access-code",
          description: "The checkout's access code.",
        },
        sessionToken: {
          type: "http",
          scheme: "bearer",
          bearerFormat: "mst_…",
          description:
            "A merchant session token (mst_…, from signup or login) in `Authorization: Bearer`: the console's calls and payment links. Never the secret key.",
        },
      },
    },
    paths: paths(),
    webhooks: webhooks(),
  });
  cached = { key, document };
  return document;
}
