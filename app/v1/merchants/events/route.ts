// GET /v1/merchants/events - events with every delivery attempt; filter by type, reference, delivered (session token).
import { deploymentMode } from "@/lib/env";
import { methodsNotAllowed, withApi } from "@/lib/http/with-api";
import { listEvents } from "@/lib/webhooks/list-events";
import { EventsQuery } from "@/lib/webhooks/schemas";

export const GET = withApi({ auth: "session", query: EventsQuery }, async ({ auth, query }) => ({
  data: await listEvents({ merchantId: auth.merchantId, ...query, mode: query.mode ?? deploymentMode() }),
}));

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed("GET");
