// POST /dashboard/api/webhook/roll-secret {mode} - a new signing secret (shown once); the old one signs 24 h more.

import { methodsNotAllowed } from "@/lib/http/with-api";
import { withConsole } from "@/lib/http/with-console";
import { rollWebhookSecret } from "@/lib/webhooks/roll-webhook-secret";
import { RollWebhookSecretBody } from "@/lib/webhooks/schemas";

export const POST = withConsole(
  { session: true, body: RollWebhookSecretBody },
  async ({ merchant, body }) => ({
    data: await rollWebhookSecret({ merchantId: merchant.merchantId, mode: body.mode }),
  }),
);

export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed("POST");
