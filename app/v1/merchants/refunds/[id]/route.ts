// GET /v1/merchants/refunds/{id} - one of the merchant's refunds (session token).
import { routes } from "@/lib/http/routes";
import { refundsEndpoints } from "@/lib/refunds/endpoints";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes(refundsEndpoints.consoleGet);
