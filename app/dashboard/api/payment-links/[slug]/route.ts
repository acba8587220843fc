// PATCH /dashboard/api/payment-links/{slug} - change or deactivate one of the merchant's links.
import { consoleRoutes } from "@/lib/http/routes";
import { linksEndpoints } from "@/lib/links/endpoints";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = consoleRoutes(linksEndpoints.update);
