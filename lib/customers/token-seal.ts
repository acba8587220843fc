import type { Mode } from "@/lib/db/schema";
import type { SealOptions } from "@/lib/security/seal";

/**
 * How a saved card's rail token (Paystack's authorization_code, the sandbox's token) is sealed at rest, as a
 * merchant's processor key is: a derived key of its own, bound to the authorization, merchant and mode, so a
 * token copied onto another row does not open.
 */
export function tokenSeal(input: { authorizationId: string; merchantId: string; mode: Mode }): SealOptions {
  return {
    purpose: "card-authorization-token",
    context: `${input.merchantId}:${input.mode}:${input.authorizationId}`,
  };
}
