import { recordAudit } from "@/lib/audit/record";
import { AppError } from "@/lib/core/errors";
import { db } from "@/lib/db/client";
import { toMillis } from "@/lib/db/schema";
import { deploymentMode } from "@/lib/env";
import { sendAccountMail } from "@/lib/receipts/account-mail";
import { hashPassword } from "@/lib/security/password";
import { assertPasswordAllowed } from "@/lib/security/password-strength";
import { pepper } from "@/lib/security/pepper";
import { addressSubject, consume } from "@/lib/security/rate-limit";
import { keyedHash, newId, randomString } from "@/lib/security/tokens";

/** How long a reset link works. */
export const RESET_TTL_MS = 30 * 60 * 1000;
/** The least time a reset request takes, known email or not, so its timing tells nothing. */
export const RESET_FLOOR_MS = 400;

const TOKEN = /^pwr_[0-9A-Za-z]{43}$/;
const hashOf = (peppered: string, token: string) => keyedHash(peppered, `link-token:${token}`);

/**
 * POST /merchants/auth/password-reset: always answers the same (202), after the same time, whether the email
 * is a user's or not. A user's email gets a link (`/dashboard/reset-password/{token}`, 30 minutes, used once);
 * the message is handed to the mailer after the answer is decided, never awaited by it. Requests are limited
 * per client address and per email (429), so nobody can flood an inbox.
 */
export async function requestPasswordReset(input: { email: string; clientAddress: string | null }) {
  const started = Date.now();
  if (input.clientAddress !== null) await consume("account_email", addressSubject(input.clientAddress));
  await consume("account_email", `email:${input.email}`);
  const peppered = await pepper();
  const token = `pwr_${randomString(43)}`;
  const user = await db()
    .selectFrom("users")
    .select(["id", "email"])
    .where("email", "=", input.email)
    .executeTakeFirst();
  if (user) {
    const now = Date.now();
    await db()
      .insertInto("user_tokens")
      .values({
        id: newId(),
        user_id: user.id,
        kind: "password_reset",
        token_hash: hashOf(peppered, token),
        created_at: now,
        expires_at: now + RESET_TTL_MS,
        used_at: null,
      })
      .execute();
    void sendAccountMail({
      to: user.email,
      kind: "password_reset",
      subject: "Reset your Paygate password",
      lines: [
        "Someone (we hope you) asked to reset the password of your Paygate account.",
        "The link below works once, for 30 minutes. Setting a new password signs out every session of your account. If you did not ask for this, ignore this email: your password stays as it is.",
      ],
      action: { label: "Choose a new password", path: `/dashboard/reset-password/${token}` },
    });
  } else {
    // The same keyed hash as a known email's, so both paths cost alike.
    hashOf(peppered, token);
  }
  const wait = RESET_FLOOR_MS - (Date.now() - started);
  if (wait > 0) await new Promise((r) => setTimeout(r, wait));
  return { accepted: true };
}

async function openReset(token: string) {
  if (!TOKEN.test(token)) return null;
  const row = await db()
    .selectFrom("user_tokens as t")
    .innerJoin("users as u", "u.id", "t.user_id")
    .select(["t.id", "t.user_id", "t.expires_at", "u.email"])
    .where("t.token_hash", "=", hashOf(await pepper(), token))
    .where("t.kind", "=", "password_reset")
    .where("t.used_at", "is", null)
    .executeTakeFirst();
  return row && toMillis(row.expires_at) > Date.now() ? row : null;
}

/** Whether a reset link still works (its page shows the form, or says it does not). */
export async function describeReset(token: string) {
  const row = await openReset(token);
  return row ? { email: row.email } : null;
}

const INVALID = "This password-reset link is unknown, used or expired; ask for a new one.";

/**
 * POST /merchants/auth/password-reset/confirm: the new password (held to the password rules) replaces the old,
 * the link is used up (a conditional update: once, on any instance), every session of the user ends in the same
 * transaction (on every instance at once), and every other open reset link of theirs stops working.
 */
export async function confirmPasswordReset(input: {
  token: string;
  password: string;
  clientAddress: string | null;
}) {
  const row = await openReset(input.token);
  if (!row) throw new AppError("invalid_token", INVALID);
  await assertPasswordAllowed(input.password, row.email);
  const hash = await hashPassword(input.password);
  const now = Date.now();
  await db()
    .transaction()
    .execute(async (trx) => {
      const used = await trx
        .updateTable("user_tokens")
        .set({ used_at: now })
        .where("id", "=", row.id)
        .where("used_at", "is", null)
        .executeTakeFirst();
      if (Number(used.numUpdatedRows) !== 1) throw new AppError("invalid_token", INVALID);
      await trx
        .updateTable("user_tokens")
        .set({ used_at: now })
        .where("user_id", "=", row.user_id)
        .where("kind", "=", "password_reset")
        .where("used_at", "is", null)
        .execute();
      await trx
        .updateTable("users")
        .set({ password_hash: hash, updated_at: now })
        .where("id", "=", row.user_id)
        .execute();
      const memberships = await trx
        .selectFrom("memberships")
        .select(["id", "merchant_id"])
        .where("user_id", "=", row.user_id)
        .execute();
      if (memberships.length > 0)
        await trx
          .updateTable("merchant_sessions")
          .set({ revoked_at: now })
          .where(
            "membership_id",
            "in",
            memberships.map((m) => m.id),
          )
          .where("revoked_at", "is", null)
          .execute();
      for (const m of memberships)
        await recordAudit(
          trx,
          {
            merchantId: m.merchant_id,
            mode: deploymentMode(),
            actor: { type: "member", email: row.email },
            address: input.clientAddress,
          },
          "account.password_reset",
          row.email,
          now,
        );
    });
  return { passwordChanged: true };
}
