// GET /v1/payment/verify/{reference} - the canonical server-side lookup before fulfilling (secret key).
import { routes } from "@/lib/http/routes";
import { paymentsEndpoints } from "@/lib/payments/endpoints";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes(paymentsEndpoints.verify);
