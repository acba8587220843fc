// GET /dashboard/api/events?type=&reference=&delivered=&cursor= - the console mode's events with every
// delivery attempt, for the lists that refresh themselves (payment page, webhook delivery log).
import { consoleRoutes } from "@/lib/http/routes";
import { webhooksEndpoints } from "@/lib/webhooks/endpoints";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = consoleRoutes(webhooksEndpoints.merchantEvents);
