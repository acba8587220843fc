// GET/PUT /v1/merchants/webhook - the webhook endpoint of a mode; PUT answers its whsec_ secret (session token).
import { deploymentMode } from "@/lib/env";
import { methodsNotAllowed, withApi } from "@/lib/http/with-api";
import { getWebhookEndpoint } from "@/lib/webhooks/get-webhook-endpoint";
import { WebhookBody, WebhookQuery } from "@/lib/webhooks/schemas";
import { setWebhookEndpoint } from "@/lib/webhooks/set-webhook-endpoint";

export const GET = withApi({ auth: "session", query: WebhookQuery }, async ({ auth, query }) => ({
  data: await getWebhookEndpoint({ merchantId: auth.merchantId, mode: query.mode ?? deploymentMode() }),
}));

export const PUT = withApi({ auth: "session", body: WebhookBody }, async ({ auth, body }) => ({
  data: await setWebhookEndpoint({ merchantId: auth.merchantId, ...body }),
}));

export const { POST, PATCH, DELETE, OPTIONS } = methodsNotAllowed("GET", "PUT");
