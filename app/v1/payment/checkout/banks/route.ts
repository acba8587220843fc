// GET /v1/payment/checkout/banks - banks for bank payment and USSD, by country (access code).
import { routes } from "@/lib/http/routes";
import { paymentsEndpoints } from "@/lib/payments/endpoints";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes(paymentsEndpoints.banks);
