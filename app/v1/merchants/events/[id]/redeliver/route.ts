// POST /v1/merchants/events/{id}/redeliver - send an event again with the same webhook-id (session token).
import { routes } from "@/lib/http/routes";
import { webhooksEndpoints } from "@/lib/webhooks/endpoints";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes(webhooksEndpoints.redeliver);
