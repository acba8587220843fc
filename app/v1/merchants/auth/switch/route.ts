// POST /v1/merchants/auth/switch {merchantId} - a session in another of the user's merchants (session token).
import { routes } from "@/lib/http/routes";
import { merchantsEndpoints } from "@/lib/merchants/endpoints";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes(merchantsEndpoints.switchMerchant);
