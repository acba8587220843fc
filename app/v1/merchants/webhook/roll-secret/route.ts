// POST /v1/merchants/webhook/roll-secret - a new signing secret; the old one signs too for 24 h (session token).
import { methodsNotAllowed, withApi } from "@/lib/http/with-api";
import { rollWebhookSecret } from "@/lib/webhooks/roll-webhook-secret";
import { RollWebhookSecretBody } from "@/lib/webhooks/schemas";

export const POST = withApi({ auth: "session", body: RollWebhookSecretBody }, async ({ auth, body }) => ({
  data: await rollWebhookSecret({ merchantId: auth.merchantId, mode: body.mode }),
}));

export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed("POST");
