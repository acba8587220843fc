// GET /v1/merchants/events - events with every delivery attempt; filter by type, reference, delivered (session token).
import { routes } from "@/lib/http/routes";
import { webhooksEndpoints } from "@/lib/webhooks/endpoints";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes(webhooksEndpoints.merchantEvents);
