// GET /v1/merchants/transactions - the merchant's transactions in this deployment's mode (session token).
import { routes } from "@/lib/http/routes";
import { merchantsEndpoints } from "@/lib/merchants/endpoints";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes(merchantsEndpoints.transactions);
