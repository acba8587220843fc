import type { Mode } from "@/lib/db/schema";
import { pepper } from "@/lib/security/pepper";
import { keyedHash } from "@/lib/security/tokens";

/**
 * A card's fingerprint: a keyed hash (HMAC-SHA256 with the deployment's pepper) of its number, scoped to the
 * merchant and mode, so the same card saved again by a customer is found again, the number is never kept, and
 * a copy of the database alone cannot test guesses of it (nor match one merchant's cards with another's).
 */
export async function cardFingerprint(input: {
  merchantId: string;
  mode: Mode;
  number: string;
}): Promise<string> {
  return keyedHash(
    await pepper(),
    JSON.stringify(["card-fingerprint", input.merchantId, input.mode, input.number]),
  );
}
