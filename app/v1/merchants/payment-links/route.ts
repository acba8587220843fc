// POST/GET /v1/merchants/payment-links - create a payment link, or list them (session token, never the secret key).
import { routes } from "@/lib/http/routes";
import { linksEndpoints } from "@/lib/links/endpoints";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes(linksEndpoints.list, linksEndpoints.create);
