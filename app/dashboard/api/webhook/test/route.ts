// POST /dashboard/api/webhook/test {mode} - send one signed webhook.test event to the mode's endpoint now.

import { methodsNotAllowed } from "@/lib/http/with-api";
import { withConsole } from "@/lib/http/with-console";
import { RollWebhookSecretBody } from "@/lib/webhooks/schemas";
import { sendTestEvent } from "@/lib/webhooks/send-test-event";

export const POST = withConsole(
  { session: true, permission: "webhooks.write", body: RollWebhookSecretBody },
  async ({ merchant, body }) => ({
    data: await sendTestEvent({ merchantId: merchant.merchantId, mode: body.mode }),
  }),
);

export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed("POST");
