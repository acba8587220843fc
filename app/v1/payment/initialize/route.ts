// POST /v1/payment/initialize - create a pending transaction and its checkout session (secret key).
import { routes } from "@/lib/http/routes";
import { paymentsEndpoints } from "@/lib/payments/endpoints";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes(paymentsEndpoints.initialize);
