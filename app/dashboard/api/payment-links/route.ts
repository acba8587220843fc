// POST /dashboard/api/payment-links - create a payment link in the console's mode (the API's definition).

import { consoleRoutes } from "@/lib/http/routes";
import { linksEndpoints } from "@/lib/links/endpoints";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = consoleRoutes(linksEndpoints.create);
