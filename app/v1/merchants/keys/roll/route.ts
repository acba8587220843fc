// POST /v1/merchants/keys/roll - replace the secret key of one mode; the old one stops working (session token).
import { routes } from "@/lib/http/routes";
import { merchantsEndpoints } from "@/lib/merchants/endpoints";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes(merchantsEndpoints.rollKey);
