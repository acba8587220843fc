import { AppError } from "@/lib/core/errors";
import { isRole } from "@/lib/core/roles";
import { db } from "@/lib/db/client";
import { pepper } from "@/lib/security/pepper";
import { issueSession } from "./credentials";
import { presentMerchant } from "./present";

/**
 * A new session for a user in one of their merchants: `merchantId` when they belong to it, else the one they
 * signed in to last (the oldest membership if none yet). A user who belongs to no merchant any more (removed
 * from every team) gets no session. The caller has checked the password (and the second factor).
 */
export async function signInMembership(input: { userId: string; merchantId?: string; peppered: string }) {
  let query = db()
    .selectFrom("memberships as m")
    .innerJoin("merchants as mc", "mc.id", "m.merchant_id")
    .select(["m.id", "m.merchant_id", "m.role", "mc.business_name", "mc.email"])
    .where("m.user_id", "=", input.userId);
  if (input.merchantId) query = query.where("m.merchant_id", "=", input.merchantId);
  const membership = await query
    .orderBy("m.last_sign_in_at", "desc")
    .orderBy("m.created_at", "asc")
    .executeTakeFirst();
  if (!membership) {
    throw new AppError(
      "invalid_credentials",
      input.merchantId
        ? "You are not a member of that merchant."
        : "This account is no longer a member of any merchant; ask an owner for an invitation.",
    );
  }
  const session = await db()
    .transaction()
    .execute((trx) => issueSession(trx, membership.merchant_id, membership.id, Date.now(), input.peppered));
  return {
    merchant: presentMerchant({
      id: membership.merchant_id,
      business_name: membership.business_name,
      email: membership.email,
    }),
    role: isRole(membership.role) ? membership.role : "viewer",
    ...session,
  };
}

/** The merchants a user belongs to, with their role in each, by business name: the console's switcher. */
export async function listMemberships(input: { userId: string }) {
  const rows = await db()
    .selectFrom("memberships as m")
    .innerJoin("merchants as mc", "mc.id", "m.merchant_id")
    .select(["m.merchant_id", "m.role", "mc.business_name"])
    .where("m.user_id", "=", input.userId)
    .orderBy("mc.business_name")
    .orderBy("m.merchant_id")
    .execute();
  return rows.map((r) => ({ merchantId: r.merchant_id, businessName: r.business_name, role: r.role }));
}

/**
 * Move a signed-in user to another of their merchants: a session of that membership is issued and the
 * current one ends (a session is bound to one membership). 404 `merchant_not_found` for a merchant the
 * user is not a member of, as for one that does not exist.
 */
export async function switchMerchant(input: { sessionId: string; userId: string; merchantId: string }) {
  const member = await db()
    .selectFrom("memberships")
    .select("id")
    .where("user_id", "=", input.userId)
    .where("merchant_id", "=", input.merchantId)
    .executeTakeFirst();
  if (!member) throw new AppError("merchant_not_found", "No merchant of yours has that id.");
  const signedIn = await signInMembership({
    userId: input.userId,
    merchantId: input.merchantId,
    peppered: await pepper(),
  });
  await db()
    .updateTable("merchant_sessions")
    .set({ revoked_at: Date.now() })
    .where("id", "=", input.sessionId)
    .where("revoked_at", "is", null)
    .execute();
  return signedIn;
}
