// POST /v1/refunds - refund all or part of a paid transaction; GET /v1/refunds - the merchant's refunds (secret key).
import { routes } from "@/lib/http/routes";
import { refundsEndpoints } from "@/lib/refunds/endpoints";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes(
  refundsEndpoints.list,
  refundsEndpoints.create,
);
