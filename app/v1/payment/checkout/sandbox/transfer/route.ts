// POST /v1/payment/checkout/sandbox/transfer - test mode: a transfer into this payment's open virtual account (access code).

import { sandboxCheckoutTransfer } from "@/lib/checkout/sandbox-checkout-transfer";
import { CheckoutSandboxTransferBody } from "@/lib/checkout/schemas";
import { methodsNotAllowed, withApi } from "@/lib/http/with-api";

export const POST = withApi(
  { auth: "access_code", body: CheckoutSandboxTransferBody },
  async ({ auth, body }) => ({
    data: await sandboxCheckoutTransfer({ principal: auth, amount: body.amount }),
  }),
);

export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed("POST");
