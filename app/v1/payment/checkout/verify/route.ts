// GET /v1/payment/checkout/verify - the pay page's status poll (access code).
import { routes } from "@/lib/http/routes";
import { paymentsEndpoints } from "@/lib/payments/endpoints";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes(paymentsEndpoints.checkoutVerify);
