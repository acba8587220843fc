// /v1/merchants/auth/login/2fa (docs/api.md).
import { routes } from "@/lib/http/routes";
import { merchantsEndpoints } from "@/lib/merchants/endpoints";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes(merchantsEndpoints.loginTwoFactor);
