import { sandboxAuthorize } from "@/lib/channels/sandbox-authorize";
import { assertTestMode } from "@/lib/channels/test-mode";
import type { AccessCodePrincipal, SecretKeyPrincipal } from "@/lib/http/principal";

/**
 * POST /v1/payment/checkout/sandbox/authorize (test mode): the customer's answer to a bank payment or USSD
 * request, given from the pay page. Same verb as `POST /v1/sandbox/authorizations` (`sandboxAuthorize`),
 * scoped to the access code's own transaction, so the page can finish those flows without the secret key.
 */
export async function sandboxCheckoutAuthorize(input: {
  principal: AccessCodePrincipal;
  decision: "approve" | "decline";
}) {
  assertTestMode(input.principal.mode);
  // sandboxAuthorize reads only merchantId and mode from its principal (it scopes the reference lookup by
  // them); the access code establishes both for exactly this transaction's reference.
  const scoped: SecretKeyPrincipal = {
    kind: "secret_key",
    merchantId: input.principal.merchantId,
    mode: input.principal.mode,
    keyId: "checkout-access-code",
    merchant: { channels: "[]", merchantBearsCost: false },
  };
  return sandboxAuthorize({
    principal: scoped,
    reference: input.principal.reference,
    decision: input.decision,
  });
}
