import { AppError } from "@/lib/core/errors";
import type { SecretKeyPrincipal } from "@/lib/core/principal";
import { db } from "@/lib/db/client";
import type { Mode } from "@/lib/db/schema";
import { deploymentMode, env } from "@/lib/env";
import { merchantPricing } from "@/lib/payments/merchant-pricing";
import { loadedPepper, pepper } from "@/lib/security/pepper";
import { consume } from "@/lib/security/rate-limit";
import { keyedHash, safeEqual } from "@/lib/security/tokens";

const findKey = (hash: string) =>
  db()
    .selectFrom("api_keys")
    .innerJoin("merchants", "merchants.id", "api_keys.merchant_id")
    .select([
      "api_keys.id",
      "api_keys.merchant_id",
      "api_keys.mode",
      "api_keys.key_hash",
      "api_keys.key_last4",
      "merchants.channels",
      "merchants.merchant_bears_cost",
      "merchants.fee_schedule",
    ])
    .where("api_keys.key_hash", "=", hash)
    .where("api_keys.revoked_at", "is", null)
    .executeTakeFirst();

export const SECRET_KEY_PATTERN = /^sk_(test|live)_[0-9A-Za-z]{32,128}$/;

/**
 * Resolve a secret key to its merchant and mode. Refuses (401 `invalid_api_key`) a missing key, a malformed
 * one, one of the other mode than this deployment, and an unknown or revoked one; then spends one token of
 * the key's rate limit.
 */
export async function authenticateSecretKey({ key }: { key: string | null }): Promise<SecretKeyPrincipal> {
  if (!key) {
    throw new AppError(
      "invalid_api_key",
      "No secret key: send it in the x-api-key header (or as Authorization: Bearer sk_...).",
    );
  }
  const match = SECRET_KEY_PATTERN.exec(key);
  if (!match)
    throw new AppError(
      "invalid_api_key",
      "The secret key is malformed: it should look like sk_test_... or sk_live_....",
    );
  const mode = match[1] as Mode;
  if (mode !== deploymentMode()) {
    throw new AppError(
      "invalid_api_key",
      env().PAYMENTS_ENV === "production"
        ? "Test keys (sk_test_...) are not accepted on the production deployment; use your live key."
        : "Live keys (sk_live_...) are not accepted on the staging deployment; use your test key.",
    );
  }
  const hash = keyedHash(loadedPepper() ?? (await pepper()), key);
  const row = await findKey(hash);
  if (!row || !safeEqual(row.key_hash, hash) || row.mode !== mode) {
    throw new AppError("invalid_api_key", "The secret key is not valid: it is unknown or has been rolled.");
  }
  await consume("secret_key", row.id);
  return {
    kind: "secret_key",
    merchantId: row.merchant_id,
    mode: row.mode,
    keyId: row.id,
    keyLast4: row.key_last4,
    merchant: merchantPricing(row),
  };
}
