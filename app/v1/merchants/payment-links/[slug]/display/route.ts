// GET /v1/merchants/payment-links/{slug}/display - public: what the link's start page shows, nothing private.
import { routes } from "@/lib/http/routes";
import { linksEndpoints } from "@/lib/links/endpoints";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes(linksEndpoints.display);
