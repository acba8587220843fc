// POST /v1/merchants/events/{id}/redeliver - send an event again with the same webhook-id (session token).
import { deploymentMode } from "@/lib/env";
import { methodsNotAllowed, withApi } from "@/lib/http/with-api";
import { redeliverEvent } from "@/lib/webhooks/redeliver-event";
import { EventParams } from "@/lib/webhooks/schemas";

export const POST = withApi({ auth: "session", params: EventParams }, async ({ auth, params }) => ({
  status: 202,
  data: await redeliverEvent({ merchantId: auth.merchantId, mode: deploymentMode(), eventId: params.id }),
}));

export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed("POST");
