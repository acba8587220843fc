// GET /v1/events/{id} - one event of the key's merchant and mode, with every delivery attempt (secret key).
import { methodsNotAllowed, withApi } from "@/lib/http/with-api";
import { getEvent } from "@/lib/webhooks/list-events";
import { EventParams } from "@/lib/webhooks/schemas";

export const GET = withApi({ auth: "secret_key", params: EventParams }, async ({ auth, params }) => ({
  data: await getEvent({ merchantId: auth.merchantId, mode: auth.mode, id: params.id }),
}));

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed("GET");
