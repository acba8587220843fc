// GET /v1/events/{id} - one event of the key's merchant and mode, with every delivery attempt (secret key).
import { routes } from "@/lib/http/routes";
import { webhooksEndpoints } from "@/lib/webhooks/endpoints";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes(webhooksEndpoints.event);
