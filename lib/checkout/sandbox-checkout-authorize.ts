import { sandboxAuthorize } from "@/lib/channels/sandbox-authorize";
import type { AccessCodePrincipal } from "@/lib/core/principal";
import { assertTestMode } from "@/lib/payments/test-mode";

/**
 * POST /v1/payment/checkout/sandbox/authorize (test mode): the customer's answer to a bank payment or USSD
 * request, given from the pay page. Same verb as `POST /v1/sandbox/authorizations` (`sandboxAuthorize`),
 * scoped by the access code to its own transaction, so the page can finish those flows without the secret key.
 */
export async function sandboxCheckoutAuthorize(input: {
  principal: AccessCodePrincipal;
  decision: "approve" | "decline";
}) {
  assertTestMode(input.principal.mode);
  return sandboxAuthorize({
    principal: input.principal,
    reference: input.principal.reference,
    decision: input.decision,
  });
}
