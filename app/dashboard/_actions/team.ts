"use server";

import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { auditContext } from "@/lib/audit/record";
import { requireMerchant } from "@/lib/console/session";
import { isAppError } from "@/lib/core/errors";
import { assertPermitted } from "@/lib/core/permit";
import { parseOrThrow } from "@/lib/core/validation";
import { clientAddressOf } from "@/lib/http/client-address";
import { ChangeRoleBody, InviteBody, TeamMemberParams } from "@/lib/team/schemas";
import { changeMemberRole, inviteMember, removeMember } from "@/lib/team/team";

/**
 * The Team page's forms, as server actions (same-origin by Next's own check; they work without JavaScript):
 * the same verbs, rules and permission checks as /v1/merchants/team. Each answers with the Team page again,
 * saying what was done or what was wrong.
 */
async function actor() {
  const member = await requireMerchant();
  const address = clientAddressOf(await headers());
  return {
    member,
    audit: auditContext({ ...member.principal, mode: member.mode }, address),
  };
}

async function run(work: () => Promise<string>): Promise<never> {
  let done: string;
  try {
    done = await work();
  } catch (err) {
    if (!isAppError(err)) throw err;
    redirect(`/dashboard/team?error=${encodeURIComponent(err.message)}`);
  }
  redirect(`/dashboard/team?done=${encodeURIComponent(done)}`);
}

export async function inviteAction(form: FormData): Promise<void> {
  await run(async () => {
    const { member, audit } = await actor();
    assertPermitted(member.principal, "team.write");
    const body = parseOrThrow(InviteBody, { email: form.get("email"), role: form.get("role") }, "body");
    const made = await inviteMember({ actor: member.principal, audit, ...body });
    return `Invitation sent to ${made.email} (${made.role}).`;
  });
}

export async function changeRoleAction(form: FormData): Promise<void> {
  await run(async () => {
    const { member, audit } = await actor();
    assertPermitted(member.principal, "team.write");
    const { id } = parseOrThrow(TeamMemberParams, { id: form.get("id") }, "path");
    const { role } = parseOrThrow(ChangeRoleBody, { role: form.get("role") }, "body");
    const changed = await changeMemberRole({ actor: member.principal, audit, id, role });
    return `${changed.email} is now ${changed.role}.`;
  });
}

export async function removeAction(form: FormData): Promise<void> {
  await run(async () => {
    const { member, audit } = await actor();
    assertPermitted(member.principal, "team.write");
    const { id } = parseOrThrow(TeamMemberParams, { id: form.get("id") }, "path");
    await removeMember({ actor: member.principal, audit, id });
    return "Removed.";
  });
}
