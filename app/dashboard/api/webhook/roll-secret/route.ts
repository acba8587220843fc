// POST /dashboard/api/webhook/roll-secret {mode} - a new signing secret (shown once); the old one signs 24 h more.
import { consoleRoutes } from "@/lib/http/routes";
import { webhooksEndpoints } from "@/lib/webhooks/endpoints";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = consoleRoutes(webhooksEndpoints.rollSecret);
