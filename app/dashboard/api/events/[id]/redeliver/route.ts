// POST /dashboard/api/events/{id}/redeliver - send an event again (same webhook-id) to the mode's endpoint.
import { consoleRoutes } from "@/lib/http/routes";
import { webhooksEndpoints } from "@/lib/webhooks/endpoints";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = consoleRoutes(webhooksEndpoints.redeliver);
