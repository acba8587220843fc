import { type AuditContext, recordAudit } from "@/lib/audit/record";
import { AppError } from "@/lib/core/errors";
import type { SessionPrincipal } from "@/lib/core/principal";
import { can, isRole, type Role } from "@/lib/core/roles";
import { db } from "@/lib/db/client";
import { lockMerchant } from "@/lib/db/lock-merchant";
import { toMillis } from "@/lib/db/schema";
import type { Trx } from "@/lib/db/types";
import { sendAccountMail } from "@/lib/receipts/account-mail";
import { pepper } from "@/lib/security/pepper";
import { newId } from "@/lib/security/tokens";
import { linkTokenHash, newLinkToken } from "./tokens";

/** How long an invitation's link is valid. */
export const INVITATION_TTL_MS = 7 * 24 * 3600 * 1000;

const iso = (ms: unknown) =>
  ms === null || ms === undefined ? null : new Date(toMillis(ms as number)).toISOString();

/**
 * The team of a merchant: its members (`status: "active"`, by their membership id) and the invitations still
 * open (`status: "invited"`, by the invitation's id), oldest first.
 */
export async function listTeam(input: { merchantId: string }) {
  const now = Date.now();
  const [members, invited] = await Promise.all([
    db()
      .selectFrom("memberships as m")
      .innerJoin("users as u", "u.id", "m.user_id")
      .select(["m.id", "u.email", "m.role", "m.last_sign_in_at", "m.created_at"])
      .where("m.merchant_id", "=", input.merchantId)
      .orderBy("m.created_at")
      .orderBy("m.id")
      .execute(),
    db()
      .selectFrom("invitations")
      .select(["id", "email", "role", "expires_at", "created_at"])
      .where("merchant_id", "=", input.merchantId)
      .where("accepted_at", "is", null)
      .where("revoked_at", "is", null)
      .where("expires_at", ">", now)
      .orderBy("created_at")
      .orderBy("id")
      .execute(),
  ]);
  return [
    ...members.map((m) => ({
      id: m.id,
      email: m.email,
      role: m.role,
      status: "active" as const,
      lastSignInAt: iso(m.last_sign_in_at),
      expiresAt: null,
    })),
    ...invited.map((i) => ({
      id: i.id,
      email: i.email,
      role: i.role,
      status: "invited" as const,
      lastSignInAt: null,
      expiresAt: iso(i.expires_at),
    })),
  ];
}

/** Owners are made, unmade and removed only by owners (`team.owners`). */
function assertMayTouch(actor: SessionPrincipal, role: string) {
  if (role === "owner" && !can(actor.role, "team.owners")) {
    throw new AppError(
      "forbidden",
      `Your role (${actor.role}) does not allow this: it needs the permission team.owners (making, unmaking and removing owners).`,
    );
  }
}

async function ownerCount(trx: Trx, merchantId: string): Promise<number> {
  const row = await trx
    .selectFrom("memberships")
    .select((eb) => eb.fn.countAll<number | string>().as("n"))
    .where("merchant_id", "=", merchantId)
    .where("role", "=", "owner")
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/**
 * Invite `email` to the team with `role`: an invitation whose link (`/dashboard/invitations/{token}`, valid
 * 7 days, used once) is emailed to them; an earlier open invitation of the same email is replaced. 409
 * `already_member` for someone already in the team. The token is in the email only.
 */
export async function inviteMember(input: {
  actor: SessionPrincipal;
  audit: AuditContext;
  email: string;
  role: Role;
}) {
  assertMayTouch(input.actor, input.role);
  const peppered = await pepper();
  const token = newLinkToken("inv");
  const now = Date.now();
  const id = newId();
  const expiresAt = now + INVITATION_TTL_MS;
  const business = await db()
    .transaction()
    .execute(async (trx) => {
      await lockMerchant(trx, input.actor.merchantId);
      const member = await trx
        .selectFrom("memberships as m")
        .innerJoin("users as u", "u.id", "m.user_id")
        .select("m.id")
        .where("m.merchant_id", "=", input.actor.merchantId)
        .where("u.email", "=", input.email)
        .executeTakeFirst();
      if (member) {
        throw new AppError("already_member", `email: ${input.email} is already a member of this team.`);
      }
      await trx
        .updateTable("invitations")
        .set({ revoked_at: now })
        .where("merchant_id", "=", input.actor.merchantId)
        .where("email", "=", input.email)
        .where("accepted_at", "is", null)
        .where("revoked_at", "is", null)
        .execute();
      await trx
        .insertInto("invitations")
        .values({
          id,
          merchant_id: input.actor.merchantId,
          email: input.email,
          role: input.role,
          token_hash: linkTokenHash(peppered, token),
          invited_by: input.actor.membershipId,
          created_at: now,
          expires_at: expiresAt,
          accepted_at: null,
          revoked_at: null,
        })
        .execute();
      await recordAudit(trx, input.audit, "team.invite", `${input.email} as ${input.role}`, now);
      return trx
        .selectFrom("merchants")
        .select("business_name")
        .where("id", "=", input.actor.merchantId)
        .executeTakeFirstOrThrow();
    });
  await sendAccountMail({
    to: input.email,
    kind: "invitation",
    subject: `${input.actor.email} invited you to ${business.business_name} on Paygate`,
    lines: [
      `${input.actor.email} invited you to join ${business.business_name}'s team on Paygate as ${input.role}.`,
      "The link below works once and for 7 days. If you did not expect this, ignore this email.",
    ],
    action: { label: "Join the team", path: `/dashboard/invitations/${token}` },
  });
  return { id, email: input.email, role: input.role, expiresAt: new Date(expiresAt).toISOString() };
}

/**
 * Change a member's role. Only owners make, unmake or change owners; the last owner cannot be demoted (409
 * `last_owner`). Checked and written under the merchant's lock, so two changes at once on two instances
 * cannot both leave it without an owner.
 */
export async function changeMemberRole(input: {
  actor: SessionPrincipal;
  audit: AuditContext;
  id: string;
  role: Role;
}) {
  assertMayTouch(input.actor, input.role);
  return db()
    .transaction()
    .execute(async (trx) => {
      await lockMerchant(trx, input.actor.merchantId);
      const member = await findMember(trx, input.actor.merchantId, input.id);
      assertMayTouch(input.actor, member.role);
      if (
        member.role === "owner" &&
        input.role !== "owner" &&
        (await ownerCount(trx, member.merchant_id)) <= 1
      ) {
        throw new AppError(
          "last_owner",
          "This is the merchant's last owner: make another member an owner first.",
        );
      }
      const now = Date.now();
      await trx
        .updateTable("memberships")
        .set({ role: input.role, updated_at: now })
        .where("id", "=", member.id)
        .execute();
      await recordAudit(
        trx,
        input.audit,
        "team.role_change",
        `${member.email}: ${member.role} → ${input.role}`,
        now,
      );
      return {
        id: member.id,
        email: member.email,
        role: input.role,
        status: "active" as const,
        lastSignInAt: iso(member.last_sign_in_at),
        expiresAt: null,
      };
    });
}

async function findMember(trx: Trx, merchantId: string, id: string) {
  const member = await trx
    .selectFrom("memberships as m")
    .innerJoin("users as u", "u.id", "m.user_id")
    .select(["m.id", "m.merchant_id", "m.role", "m.last_sign_in_at", "u.email"])
    .where("m.merchant_id", "=", merchantId)
    .where("m.id", "=", id)
    .executeTakeFirst();
  if (!member || !isRole(member.role))
    throw new AppError("member_not_found", `id: no member ${id} in this team.`);
  return member;
}

/**
 * Remove a member, or withdraw an open invitation (by its id). A member's sessions of this merchant end in
 * the same transaction: every instance reads the session with its membership on each request, so their next
 * request, anywhere, is 401. The last owner cannot be removed (409 `last_owner`); only owners remove owners.
 */
export async function removeMember(input: { actor: SessionPrincipal; audit: AuditContext; id: string }) {
  return db()
    .transaction()
    .execute(async (trx) => {
      await lockMerchant(trx, input.actor.merchantId);
      const now = Date.now();
      const invitation = await trx
        .selectFrom("invitations")
        .select(["id", "email", "role"])
        .where("merchant_id", "=", input.actor.merchantId)
        .where("id", "=", input.id)
        .where("accepted_at", "is", null)
        .where("revoked_at", "is", null)
        .executeTakeFirst();
      if (invitation) {
        assertMayTouch(input.actor, invitation.role);
        await trx
          .updateTable("invitations")
          .set({ revoked_at: now })
          .where("id", "=", invitation.id)
          .execute();
        await recordAudit(trx, input.audit, "team.invitation_revoke", invitation.email, now);
        return { id: invitation.id, removed: true };
      }
      const member = await findMember(trx, input.actor.merchantId, input.id);
      assertMayTouch(input.actor, member.role);
      if (member.role === "owner" && (await ownerCount(trx, member.merchant_id)) <= 1) {
        throw new AppError(
          "last_owner",
          "This is the merchant's last owner: make another member an owner first.",
        );
      }
      await trx
        .updateTable("merchant_sessions")
        .set({ revoked_at: now })
        .where("membership_id", "=", member.id)
        .where("revoked_at", "is", null)
        .execute();
      await trx.deleteFrom("memberships").where("id", "=", member.id).execute();
      await recordAudit(trx, input.audit, "team.remove", `${member.email} (${member.role})`, now);
      return { id: member.id, removed: true };
    });
}
