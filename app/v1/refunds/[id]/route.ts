// GET /v1/refunds/{id} - one of the merchant's refunds (secret key).
import { routes } from "@/lib/http/routes";
import { refundsEndpoints } from "@/lib/refunds/endpoints";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes(refundsEndpoints.get);
