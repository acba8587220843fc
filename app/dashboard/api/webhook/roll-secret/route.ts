// POST /dashboard/api/webhook/roll-secret {mode} - a new signing secret (shown once); the old one signs 24 h more.
import { withConsole } from "@/lib/console/with-console";
import { methodsNotAllowed } from "@/lib/http/with-api";
import { rollWebhookSecret } from "@/lib/webhooks/roll-webhook-secret";
import { RollWebhookSecretBody } from "@/lib/webhooks/schemas";

export const POST = withConsole(
  { session: true, body: RollWebhookSecretBody },
  async ({ merchant, body }) => ({
    data: await rollWebhookSecret({ merchantId: merchant.merchantId, mode: body.mode }),
  }),
);

export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed("POST");
