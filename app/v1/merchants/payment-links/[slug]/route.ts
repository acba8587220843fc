// GET/PATCH /v1/merchants/payment-links/{slug} - read a link, or change it (deactivate) (session token).
import { routes } from "@/lib/http/routes";
import { linksEndpoints } from "@/lib/links/endpoints";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes(linksEndpoints.get, linksEndpoints.update);
