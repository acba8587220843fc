// POST /v1/payment/checkout/sandbox/transfer - test mode: a transfer into this payment's open virtual account (access code).
import { checkoutEndpoints } from "@/lib/checkout/endpoints";
import { routes } from "@/lib/http/routes";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes(checkoutEndpoints.sandboxTransfer);
