// POST /v1/payment/checkout/sandbox/authorize - test mode: approve or decline this payment's bank payment or USSD request (access code).
import { checkoutEndpoints } from "@/lib/checkout/endpoints";
import { routes } from "@/lib/http/routes";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes(checkoutEndpoints.sandboxAuthorize);
