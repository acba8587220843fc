// POST /dashboard/api/events/{id}/redeliver - send an event again (same webhook-id) to the mode's endpoint.

import { parseOrThrow } from "@/lib/core/validation";
import { methodsNotAllowed } from "@/lib/http/with-api";
import { withConsole } from "@/lib/http/with-console";
import { redeliverEvent } from "@/lib/webhooks/redeliver-event";
import { EventParams } from "@/lib/webhooks/schemas";

export const POST = withConsole({ session: true }, async ({ merchant, params }) => {
  const { id } = parseOrThrow(EventParams, { id: params.id }, "path");
  return {
    status: 202,
    data: await redeliverEvent({ merchantId: merchant.merchantId, mode: merchant.mode, eventId: id }),
  };
});

export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed("POST");
