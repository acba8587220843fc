import { generateSecret, generateURI, verifySync } from "otplib";
import QRCode from "qrcode";
import { type AuditContext, recordAudit } from "@/lib/audit/record";
import { AppError } from "@/lib/core/errors";
import { db } from "@/lib/db/client";
import { toMillis } from "@/lib/db/schema";
import { pepper } from "@/lib/security/pepper";
import { seal, unseal } from "@/lib/security/seal";
import { keyedHash, newId, randomString } from "@/lib/security/tokens";

/**
 * Two-factor sign-in: TOTP (RFC 6238: 30-second steps, 6 digits, HMAC-SHA1) with otplib, the authenticator
 * apps' defaults. The secret is sealed at rest as the Paystack key is (AES-256-GCM under the pepper, its own
 * purpose, bound to the user's id). A code is accepted once: the step it was accepted at is kept, and only a
 * later step's code is accepted after it, by a conditional update (so one code used twice at once on two
 * instances signs in once). A sign-in with a right password waits in a challenge (5 minutes) that takes at
 * most CHALLENGE_GUESSES codes. Ten recovery codes, shown once, each usable once, are stored hashed.
 */
export const CHALLENGE_TTL_MS = 5 * 60 * 1000;
export const CHALLENGE_GUESSES = 5;
const RECOVERY_CODES = 10;
const SEAL = (userId: string) => ({ purpose: "totp-secret", context: userId });
const CODE = /^\d{6}$/;
const BASE32 = "ABCDEFGHJKMNPQRSTVWXYZ23456789";

const challengeHash = (peppered: string, token: string) => keyedHash(peppered, `login-challenge:${token}`);
const recoveryHash = (peppered: string, userId: string, code: string) =>
  keyedHash(peppered, `recovery-code:${userId}:${code.replace(/[^0-9A-Za-z]/g, "").toUpperCase()}`);

/** The step a code is right for, within one step either way of now (clock drift), or null. */
function acceptedStep(secret: string, code: string): number | null {
  if (!CODE.test(code)) return null;
  const result = verifySync({ secret, token: code, epochTolerance: 30 });
  return result.valid ? Number((result as { timeStep: number }).timeStep) : null;
}

/** Start setting up: a new secret (kept pending, sealed) for the user's authenticator app, and its QR code. */
export async function setupTwoFactor(input: { userId: string; email: string }) {
  const secret = generateSecret();
  const otpauthUrl = generateURI({ secret, issuer: "Paygate", label: input.email });
  await db()
    .updateTable("users")
    .set({ totp_pending_sealed: seal(await pepper(), secret, SEAL(input.userId)), updated_at: Date.now() })
    .where("id", "=", input.userId)
    .execute();
  const qrCode = await QRCode.toDataURL(otpauthUrl, { errorCorrectionLevel: "M", margin: 2, width: 240 });
  return { secret, otpauthUrl, qrCode };
}

/**
 * Turn two-factor sign-in on with a code of the pending secret: answers the ten recovery codes, shown this
 * once (any earlier ones stop working). 401 `invalid_two_factor_code` for a wrong code.
 */
export async function enableTwoFactor(input: { userId: string; code: string; audit: AuditContext }) {
  const peppered = await pepper();
  const user = await db()
    .selectFrom("users")
    .select(["totp_pending_sealed"])
    .where("id", "=", input.userId)
    .executeTakeFirst();
  if (!user?.totp_pending_sealed)
    throw new AppError(
      "invalid_state",
      "Start with POST /v1/merchants/auth/2fa/setup: there is no secret to enable.",
    );
  const secret = unseal(peppered, user.totp_pending_sealed, SEAL(input.userId));
  const step = acceptedStep(secret, input.code);
  if (step === null)
    throw new AppError("invalid_two_factor_code", "code: that is not the code your app shows now.");
  const codes = Array.from({ length: RECOVERY_CODES }, () => {
    const raw = randomString(10, BASE32);
    return `${raw.slice(0, 5)}-${raw.slice(5)}`;
  });
  const now = Date.now();
  await db()
    .transaction()
    .execute(async (trx) => {
      await trx
        .updateTable("users")
        .set({
          totp_secret_sealed: user.totp_pending_sealed,
          totp_pending_sealed: null,
          totp_enabled_at: now,
          totp_last_step: step,
          updated_at: now,
        })
        .where("id", "=", input.userId)
        .execute();
      await trx.deleteFrom("recovery_codes").where("user_id", "=", input.userId).execute();
      await trx
        .insertInto("recovery_codes")
        .values(
          codes.map((code) => ({
            id: newId(),
            user_id: input.userId,
            code_hash: recoveryHash(peppered, input.userId, code),
            created_at: now,
            used_at: null,
          })),
        )
        .execute();
      await recordAudit(trx, input.audit, "account.two_factor_enable", null, now);
    });
  return { recoveryCodes: codes };
}

/** A sign-in whose password was right, waiting for its code: the challenge to answer it with. */
export async function startChallenge(input: {
  userId: string;
  merchantId?: string;
  deviceId: string | null;
}) {
  const challenge = `l2f_${randomString(43)}`;
  const now = Date.now();
  await db()
    .insertInto("login_challenges")
    .values({
      id: newId(),
      token_hash: challengeHash(await pepper(), challenge),
      user_id: input.userId,
      merchant_id: input.merchantId ?? null,
      device_id: input.deviceId,
      attempts: 0,
      created_at: now,
      expires_at: now + CHALLENGE_TTL_MS,
      used_at: null,
    })
    .execute();
  return { twoFactorRequired: true as const, challenge };
}

const SPENT =
  "This sign-in has expired, was used, or took too many wrong codes: sign in with your password again.";

/**
 * Answer a challenge with a code of the user's app (or one of their recovery codes). Each answer spends one
 * of the challenge's guesses first (a conditional update, on any instance), so at most CHALLENGE_GUESSES are
 * tried per right password. Answers the user, the merchant asked for and the device of the sign-in.
 */
export async function answerChallenge(input: { challenge: string; code?: string; recoveryCode?: string }) {
  const peppered = await pepper();
  const hash = challengeHash(peppered, input.challenge);
  const now = Date.now();
  const spent = await db()
    .updateTable("login_challenges")
    .set((eb) => ({ attempts: eb("attempts", "+", 1) }))
    .where("token_hash", "=", hash)
    .where("used_at", "is", null)
    .where("expires_at", ">", now)
    .where("attempts", "<", CHALLENGE_GUESSES)
    .executeTakeFirst();
  if (Number(spent.numUpdatedRows) !== 1) throw new AppError("invalid_token", SPENT);
  const row = await db()
    .selectFrom("login_challenges as c")
    .innerJoin("users as u", "u.id", "c.user_id")
    .select(["c.id", "c.user_id", "c.merchant_id", "c.device_id", "u.totp_secret_sealed", "u.email"])
    .where("c.token_hash", "=", hash)
    .executeTakeFirstOrThrow();
  if (!row.totp_secret_sealed) throw new AppError("invalid_token", SPENT);
  let ok = false;
  if (input.recoveryCode) {
    const used = await db()
      .updateTable("recovery_codes")
      .set({ used_at: now })
      .where("user_id", "=", row.user_id)
      .where("code_hash", "=", recoveryHash(peppered, row.user_id, input.recoveryCode))
      .where("used_at", "is", null)
      .executeTakeFirst();
    ok = Number(used.numUpdatedRows) === 1;
  } else if (input.code) {
    const step = acceptedStep(unseal(peppered, row.totp_secret_sealed, SEAL(row.user_id)), input.code);
    if (step !== null) {
      // Accepted once: only a step after the last accepted one, whichever instance got it first.
      const taken = await db()
        .updateTable("users")
        .set({ totp_last_step: step })
        .where("id", "=", row.user_id)
        .where((eb) => eb.or([eb("totp_last_step", "is", null), eb("totp_last_step", "<", step)]))
        .executeTakeFirst();
      ok = Number(taken.numUpdatedRows) === 1;
    }
  }
  if (!ok) {
    throw new AppError(
      "invalid_two_factor_code",
      input.recoveryCode
        ? "recoveryCode: unknown or already used."
        : "code: not the code your app shows now, or a code already used; wait for the next one.",
    );
  }
  const claimed = await db()
    .updateTable("login_challenges")
    .set({ used_at: now })
    .where("id", "=", row.id)
    .where("used_at", "is", null)
    .executeTakeFirst();
  if (Number(claimed.numUpdatedRows) !== 1) throw new AppError("invalid_token", SPENT);
  return { userId: row.user_id, merchantId: row.merchant_id ?? undefined, deviceId: row.device_id };
}

/** Whether the user has two-factor sign-in on. */
export async function twoFactorEnabled(userId: string): Promise<boolean> {
  const row = await db()
    .selectFrom("users")
    .select("totp_enabled_at")
    .where("id", "=", userId)
    .executeTakeFirst();
  return (
    row?.totp_enabled_at !== null && row?.totp_enabled_at !== undefined && toMillis(row.totp_enabled_at) > 0
  );
}

/** An owner's switch: every member of the merchant must have two-factor sign-in on to do anything but set it up. */
export async function setTwoFactorRequirement(input: {
  merchantId: string;
  userId: string;
  required: boolean;
  audit: AuditContext;
}) {
  // Its owner first: a switch that would lock its own owner out of everything but setting it up is refused.
  if (input.required && !(await twoFactorEnabled(input.userId)))
    throw new AppError(
      "invalid_state",
      "Turn on two-factor sign-in for yourself first (Your account), then require it of everyone.",
    );
  await db()
    .transaction()
    .execute(async (trx) => {
      await trx
        .updateTable("merchants")
        .set({ require_two_factor: input.required ? 1 : 0, updated_at: Date.now() })
        .where("id", "=", input.merchantId)
        .execute();
      await recordAudit(trx, input.audit, "settings.require_two_factor", input.required ? "on" : "off");
    });
  return { required: input.required };
}

/** Whether the merchant requires two-factor sign-in of every member (the owner's switch). */
export async function twoFactorRequired(merchantId: string): Promise<boolean> {
  const row = await db()
    .selectFrom("merchants")
    .select("require_two_factor")
    .where("id", "=", merchantId)
    .executeTakeFirst();
  return Number(row?.require_two_factor ?? 0) === 1;
}
