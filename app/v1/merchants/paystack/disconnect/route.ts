// POST /v1/merchants/paystack/disconnect - forget the merchant's Paystack key of a mode.
import { routes } from "@/lib/http/routes";
import { merchantsEndpoints } from "@/lib/merchants/endpoints";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes(merchantsEndpoints.disconnectPaystack);
