import type { Mode } from "@/lib/db/schema";
import type { Trx } from "@/lib/db/types";
import { env } from "@/lib/env";
import { keyedHash, newId, randomString } from "@/lib/security/tokens";

/**
 * Issuing credentials. Secret keys are `sk_<mode>_` + 43 base62 characters (256 bits); session tokens are
 * `mst_` + 43 base62 characters. Only their keyed hashes are stored; the plain values exist only in the
 * response that shows them once. The caller passes the pepper (`pepper()`), read before its database
 * transaction: on SQLite the transaction holds the one connection, so no query may run beside it.
 */
export async function issueSecretKey(
  trx: Trx,
  merchantId: string,
  mode: Mode,
  now: number,
  peppered: string,
): Promise<string> {
  const secretKey = `sk_${mode}_${randomString(43)}`;
  await trx
    .insertInto("api_keys")
    .values({
      id: newId(),
      merchant_id: merchantId,
      mode,
      key_hash: keyedHash(peppered, secretKey),
      key_last4: secretKey.slice(-4),
      created_at: now,
      revoked_at: null,
    })
    .execute();
  return secretKey;
}

/** A session of one membership (a user in `merchantId`); its sign-in time is recorded on the membership. */
export async function issueSession(
  trx: Trx,
  merchantId: string,
  membershipId: string,
  now: number,
  peppered: string,
): Promise<{ accessToken: string; expiresAt: string }> {
  const accessToken = `mst_${randomString(43)}`;
  const expiresAt = now + env().SESSION_TTL_SECONDS * 1000;
  await trx
    .insertInto("merchant_sessions")
    .values({
      id: newId(),
      merchant_id: merchantId,
      membership_id: membershipId,
      token_hash: keyedHash(peppered, accessToken),
      created_at: now,
      expires_at: expiresAt,
      revoked_at: null,
    })
    .execute();
  await trx.updateTable("memberships").set({ last_sign_in_at: now }).where("id", "=", membershipId).execute();
  return { accessToken, expiresAt: new Date(expiresAt).toISOString() };
}
