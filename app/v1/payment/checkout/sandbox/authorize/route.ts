// POST /v1/payment/checkout/sandbox/authorize - test mode: approve or decline this payment's bank payment or USSD request (access code).

import { sandboxCheckoutAuthorize } from "@/lib/checkout/sandbox-checkout-authorize";
import { CheckoutSandboxAuthorizeBody } from "@/lib/checkout/schemas";
import { methodsNotAllowed, withApi } from "@/lib/http/with-api";

export const POST = withApi(
  { auth: "access_code", body: CheckoutSandboxAuthorizeBody },
  async ({ auth, body }) => ({
    data: await sandboxCheckoutAuthorize({ principal: auth, decision: body.decision }),
  }),
);

export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed("POST");
