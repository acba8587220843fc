// PUT /dashboard/api/webhook {mode, url, events?} - save the mode's endpoint; answers its secret (shown once).

import { methodsNotAllowed } from "@/lib/http/with-api";
import { withConsole } from "@/lib/http/with-console";
import { WebhookBody } from "@/lib/webhooks/schemas";
import { setWebhookEndpoint } from "@/lib/webhooks/set-webhook-endpoint";

export const PUT = withConsole({ session: true, body: WebhookBody }, async ({ merchant, body }) => ({
  data: await setWebhookEndpoint({ merchantId: merchant.merchantId, ...body }),
}));

export const { GET, POST, PATCH, DELETE, OPTIONS } = methodsNotAllowed("PUT");
