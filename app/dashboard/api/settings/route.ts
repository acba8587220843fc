// PUT /dashboard/api/settings - channels, who bears the cost, brand colour and logo (the API's schema and verb).
import { consoleRoutes } from "@/lib/http/routes";
import { merchantsEndpoints } from "@/lib/merchants/endpoints";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = consoleRoutes(merchantsEndpoints.updateSettings);
