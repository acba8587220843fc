// GET/PUT /v1/merchants/settings - channels enabled, who bears fees, brand colour and logo (session token).
import { routes } from "@/lib/http/routes";
import { merchantsEndpoints } from "@/lib/merchants/endpoints";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes(
  merchantsEndpoints.getSettings,
  merchantsEndpoints.updateSettings,
);
