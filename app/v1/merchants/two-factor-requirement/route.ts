// /v1/merchants/two-factor-requirement (docs/api.md).
import { routes } from "@/lib/http/routes";
import { merchantsEndpoints } from "@/lib/merchants/endpoints";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes(merchantsEndpoints.requireTwoFactor);
