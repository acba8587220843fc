// POST /v1/merchants/webhook/roll-secret - a new signing secret; the old one signs too for 24 h (session token).
import { routes } from "@/lib/http/routes";
import { webhooksEndpoints } from "@/lib/webhooks/endpoints";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes(webhooksEndpoints.rollSecret);
