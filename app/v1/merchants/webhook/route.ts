// GET/PUT /v1/merchants/webhook - the webhook endpoint of a mode; PUT answers its whsec_ secret (session token).
import { routes } from "@/lib/http/routes";
import { webhooksEndpoints } from "@/lib/webhooks/endpoints";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes(
  webhooksEndpoints.getEndpoint,
  webhooksEndpoints.setEndpoint,
);
