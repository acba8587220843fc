// POST /v1/merchants/refunds - refund a paid transaction; GET - the merchant's refunds (session token).
import { routes } from "@/lib/http/routes";
import { refundsEndpoints } from "@/lib/refunds/endpoints";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes(
  refundsEndpoints.consoleList,
  refundsEndpoints.consoleCreate,
);
