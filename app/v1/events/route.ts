// GET /v1/events - the key's merchant and mode's events with every delivery attempt; filter by type, reference, delivered (secret key).
import { routes } from "@/lib/http/routes";
import { webhooksEndpoints } from "@/lib/webhooks/endpoints";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes(webhooksEndpoints.events);
