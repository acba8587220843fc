// PUT /dashboard/api/webhook {mode, url, events?} - save the mode's endpoint; answers its secret (shown once).
import { consoleRoutes } from "@/lib/http/routes";
import { webhooksEndpoints } from "@/lib/webhooks/endpoints";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = consoleRoutes(webhooksEndpoints.setEndpoint);
