// GET /v1/events - the key's merchant and mode's events with every delivery attempt; filter by type, reference, delivered (secret key).
import { methodsNotAllowed, withApi } from "@/lib/http/with-api";
import { listEvents } from "@/lib/webhooks/list-events";
import { KeyEventsQuery } from "@/lib/webhooks/schemas";

export const GET = withApi({ auth: "secret_key", query: KeyEventsQuery }, async ({ auth, query }) => ({
  data: await listEvents({ merchantId: auth.merchantId, mode: auth.mode, ...query }),
}));

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed("GET");
