import { recordAudit } from "@/lib/audit/record";
import { AppError } from "@/lib/core/errors";
import { isRole } from "@/lib/core/roles";
import { db } from "@/lib/db/client";
import { toMillis } from "@/lib/db/schema";
import { deploymentMode } from "@/lib/env";
import { issueSession } from "@/lib/merchants/credentials";
import { presentMerchant } from "@/lib/merchants/present";
import { issueDeviceCookie, userAccount } from "@/lib/security/known-device";
import { hashPassword, verifyPassword } from "@/lib/security/password";
import { assertPasswordAllowed } from "@/lib/security/password-strength";
import { pepper } from "@/lib/security/pepper";
import { reserve } from "@/lib/security/rate-limit";
import { newId } from "@/lib/security/tokens";
import { LINK_TOKEN, linkTokenHash } from "./tokens";

const INVALID =
  "This invitation link is unknown, used, withdrawn or expired; ask the team's owner for a new one.";

async function openInvitation(token: string) {
  if (!LINK_TOKEN.test(token) || !token.startsWith("inv_")) return null;
  const row = await db()
    .selectFrom("invitations as i")
    .innerJoin("merchants as mc", "mc.id", "i.merchant_id")
    .leftJoin("users as u", "u.email", "i.email")
    .select([
      "i.id",
      "i.merchant_id",
      "i.email",
      "i.role",
      "i.expires_at",
      "mc.business_name",
      "mc.email as merchant_email",
      "u.id as user_id",
      "u.password_hash",
    ])
    .where("i.token_hash", "=", linkTokenHash(await pepper(), token))
    .where("i.accepted_at", "is", null)
    .where("i.revoked_at", "is", null)
    .executeTakeFirst();
  if (!row || toMillis(row.expires_at) <= Date.now() || !isRole(row.role)) return null;
  return row;
}

/** What the invitation page shows: whose team, which role, for which email, and whether it has a password. */
export async function describeInvitation(token: string) {
  const row = await openInvitation(token);
  if (!row) return null;
  return {
    businessName: row.business_name,
    email: row.email,
    role: row.role,
    hasAccount: row.user_id !== null,
    expiresAt: new Date(toMillis(row.expires_at)).toISOString(),
  };
}

/**
 * Accept an invitation: the invitee's password (the one they have, if the email has an account; else the one
 * they choose now, which makes their account, its email confirmed by the link) joins them to the team with
 * the invitation's role and signs them in there. The invitation is used once, on any instance: it is claimed
 * by a conditional update in the same transaction as the membership. 400 `invalid_token` for a link that is
 * unknown, used, withdrawn or expired; 401 `invalid_credentials` for a wrong password of an existing account
 * (counted against the address's sign-in budget).
 */
export async function acceptInvitation(input: { token: string; password: string; clientAddress: string }) {
  const permit = await reserve("login", input.clientAddress);
  try {
    const row = await openInvitation(input.token);
    if (!row) throw new AppError("invalid_token", INVALID);
    if (row.password_hash !== null && !(await verifyPassword(input.password, row.password_hash))) {
      throw new AppError("invalid_credentials", "The password is incorrect for this email's account.");
    }
    if (row.password_hash === null) await assertPasswordAllowed(input.password, row.email);
    permit.refund();
    const newHash = row.user_id === null ? await hashPassword(input.password) : null;
    const peppered = await pepper();
    const now = Date.now();
    const result = await db()
      .transaction()
      .execute(async (trx) => {
        const claimed = await trx
          .updateTable("invitations")
          .set({ accepted_at: now })
          .where("id", "=", row.id)
          .where("accepted_at", "is", null)
          .where("revoked_at", "is", null)
          .executeTakeFirst();
        if (Number(claimed.numUpdatedRows) !== 1) throw new AppError("invalid_token", INVALID);
        let userId = row.user_id;
        if (userId === null) {
          userId = newId();
          await trx
            .insertInto("users")
            .values({
              id: userId,
              email: row.email,
              password_hash: newHash as string,
              email_confirmed_at: now,
              created_at: now,
              updated_at: now,
            })
            .execute();
        }
        const existing = await trx
          .selectFrom("memberships")
          .select("id")
          .where("merchant_id", "=", row.merchant_id)
          .where("user_id", "=", userId)
          .executeTakeFirst();
        const membershipId = existing?.id ?? newId();
        if (!existing) {
          await trx
            .insertInto("memberships")
            .values({
              id: membershipId,
              merchant_id: row.merchant_id,
              user_id: userId,
              role: row.role,
              created_at: now,
              updated_at: now,
              last_sign_in_at: null,
            })
            .execute();
        }
        await recordAudit(
          trx,
          {
            merchantId: row.merchant_id,
            mode: deploymentMode(),
            actor: { type: "member", email: row.email },
            address: input.clientAddress,
          },
          "team.join",
          `${row.email} as ${row.role}`,
          now,
        );
        const session = await issueSession(trx, row.merchant_id, membershipId, now, peppered);
        return { userId, session };
      });
    return {
      merchant: presentMerchant({
        id: row.merchant_id,
        business_name: row.business_name,
        email: row.merchant_email,
      }),
      role: row.role,
      ...result.session,
      device: await issueDeviceCookie(userAccount(result.userId)),
    };
  } finally {
    await permit.settle();
  }
}
