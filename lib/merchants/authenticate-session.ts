import { AppError } from "@/lib/core/errors";
import type { SessionPrincipal } from "@/lib/core/principal";
import { isRole } from "@/lib/core/roles";
import { db } from "@/lib/db/client";
import { deploymentMode } from "@/lib/env";
import { pepper } from "@/lib/security/pepper";
import { keyedHash, safeEqual } from "@/lib/security/tokens";

export const SESSION_TOKEN_PATTERN = /^mst_[0-9A-Za-z]{43}$/;

/**
 * Resolve a merchant session token (`Authorization: Bearer mst_...`) or throw 401 `invalid_session`.
 * The session acts in this deployment's mode: test on staging, live on production.
 */
export async function authenticateSession({ token }: { token: string | null }): Promise<SessionPrincipal> {
  if (!token) {
    throw new AppError(
      "invalid_session",
      "Sign in first: send Authorization: Bearer <accessToken> from /v1/merchants/auth/login.",
    );
  }
  if (/^sk_(test|live)_/.test(token)) {
    throw new AppError(
      "invalid_session",
      "This endpoint takes a merchant session token (Authorization: Bearer mst_... from /v1/merchants/auth/login), not a secret key.",
    );
  }
  if (!SESSION_TOKEN_PATTERN.test(token)) {
    throw new AppError("invalid_session", "The session token is malformed; sign in again for a new one.");
  }
  const hash = keyedHash(await pepper(), token);
  // The membership and user are read with the session on every request: a role changed or a member removed
  // (whose sessions are revoked in the same transaction) holds at once, on every instance.
  const row = await db()
    .selectFrom("merchant_sessions as s")
    .innerJoin("memberships as m", (j) =>
      j.onRef("m.id", "=", "s.membership_id").onRef("m.merchant_id", "=", "s.merchant_id"),
    )
    .innerJoin("users as u", "u.id", "m.user_id")
    .innerJoin("merchants as mc", "mc.id", "s.merchant_id")
    .select([
      "mc.require_two_factor",
      "u.totp_enabled_at",
      "s.id",
      "s.merchant_id",
      "s.token_hash",
      "s.expires_at",
      "m.id as membership_id",
      "m.role",
      "u.id as user_id",
      "u.email",
    ])
    .where("s.token_hash", "=", hash)
    .where("s.revoked_at", "is", null)
    .executeTakeFirst();
  if (!row || !safeEqual(row.token_hash, hash) || !isRole(row.role)) {
    throw new AppError("invalid_session", "The session token is unknown or was signed out; sign in again.");
  }
  if (Number(row.expires_at) <= Date.now()) {
    throw new AppError("invalid_session", "The session has expired; sign in again.");
  }
  return {
    kind: "session",
    merchantId: row.merchant_id,
    mode: deploymentMode(),
    sessionId: row.id,
    userId: row.user_id,
    membershipId: row.membership_id,
    email: row.email,
    role: row.role,
    twoFactorMissing: Number(row.require_two_factor) === 1 && row.totp_enabled_at === null,
  };
}
