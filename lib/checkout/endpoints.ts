import { InboundTransferResponse, SandboxAuthorizationResponse } from "@/lib/channels/responses";
import { defineEndpoint } from "@/lib/core/endpoint";
import { sandboxCheckoutAuthorize } from "./sandbox-checkout-authorize";
import { sandboxCheckoutTransfer } from "./sandbox-checkout-transfer";
import { CheckoutSandboxAuthorizeBody, CheckoutSandboxTransferBody } from "./schemas";

/** The hosted page's own test-mode doors (access code): the sandbox bank's answers for this checkout. */
export const checkoutEndpoints = {
  sandboxAuthorize: defineEndpoint({
    method: "POST",
    path: "/v1/payment/checkout/sandbox/authorize",
    tag: "Sandbox",
    summary: "Test mode: approve or decline this checkout's bank payment or USSD request",
    auth: "access_code",
    body: CheckoutSandboxAuthorizeBody,
    status: 200,
    response: SandboxAuthorizationResponse,
    errors: ["test_mode_only", "invalid_state"],
    example: { decision: "approve" },
    handler: ({ auth, body }) => sandboxCheckoutAuthorize({ principal: auth, decision: body.decision }),
  }),
  sandboxTransfer: defineEndpoint({
    method: "POST",
    path: "/v1/payment/checkout/sandbox/transfer",
    tag: "Sandbox",
    summary: "Test mode: a transfer into this checkout's open account",
    auth: "access_code",
    body: CheckoutSandboxTransferBody,
    status: 200,
    response: InboundTransferResponse,
    errors: ["test_mode_only", "invalid_state"],
    example: {},
    handler: ({ auth, body }) => sandboxCheckoutTransfer({ principal: auth, amount: body.amount }),
  }),
};
