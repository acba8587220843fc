// GET /v1/payment/checkout/verify - the pay page's status poll (access code).
import { methodsNotAllowed, withApi } from "@/lib/http/with-api";
import { verifyCheckout } from "@/lib/payments/verify-checkout";

export const GET = withApi({ auth: "access_code" }, async ({ auth }) => ({
  data: await verifyCheckout({ principal: auth }),
}));

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed("GET");
