import { auditContext } from "@/lib/audit/record";
import { defineEndpoint, withHeaders } from "@/lib/core/endpoint";
import { apiDeviceCookie, DeviceCookieHeaders } from "@/lib/merchants/device-cookie-header";
import { LoginResponse } from "@/lib/merchants/responses";
import { acceptInvitation } from "./accept-invitation";
import { InvitationResponse, RemovedResponse, TeamMember, TeamResponse } from "./responses";
import { AcceptInvitationBody, ChangeRoleBody, InviteBody, TeamMemberParams } from "./schemas";
import { changeMemberRole, inviteMember, listTeam, removeMember } from "./team";

/** The team of a merchant: members, their roles, invitations (session token; docs/api.md "Team"). */
export const teamEndpoints = {
  list: defineEndpoint({
    method: "GET",
    path: "/v1/merchants/team",
    tag: "Team",
    summary: "Members and open invitations",
    auth: "session",
    permission: "team.read",
    status: 200,
    response: TeamResponse,
    handler: ({ auth }) => listTeam({ merchantId: auth.merchantId }),
  }),
  invite: defineEndpoint({
    method: "POST",
    path: "/v1/merchants/team/invitations",
    tag: "Team",
    summary: "Invite someone by email, with a role",
    description:
      "Emails a link (/dashboard/invitations/{token}, valid 7 days, used once) where the invitee sets a password, or signs in if the email has one, and joins. A newer invitation of the same email replaces an open one. Only owners invite owners.",
    auth: "session",
    permission: "team.write",
    body: InviteBody,
    status: 201,
    response: InvitationResponse,
    errors: ["already_member"],
    example: { email: "bola@example.com", role: "support" },
    handler: ({ auth, body, clientAddress }) =>
      inviteMember({ actor: auth, audit: auditContext(auth, clientAddress), ...body }),
  }),
  changeRole: defineEndpoint({
    method: "PATCH",
    path: "/v1/merchants/team/{id}",
    tag: "Team",
    summary: "Change a member's role",
    description:
      "Only owners make, unmake or change owners; the last owner cannot be demoted (409 last_owner).",
    auth: "session",
    permission: "team.write",
    params: TeamMemberParams,
    body: ChangeRoleBody,
    status: 200,
    response: TeamMember,
    errors: ["member_not_found", "last_owner"],
    example: { role: "developer" },
    handler: ({ auth, body, params, clientAddress }) =>
      changeMemberRole({
        actor: auth,
        audit: auditContext(auth, clientAddress),
        id: params.id,
        role: body.role,
      }),
  }),
  remove: defineEndpoint({
    method: "DELETE",
    path: "/v1/merchants/team/{id}",
    tag: "Team",
    summary: "Remove a member (their sessions end at once) or withdraw an invitation",
    auth: "session",
    permission: "team.write",
    params: TeamMemberParams,
    status: 200,
    response: RemovedResponse,
    errors: ["member_not_found", "last_owner"],
    handler: ({ auth, params, clientAddress }) =>
      removeMember({ actor: auth, audit: auditContext(auth, clientAddress), id: params.id }),
  }),
  accept: defineEndpoint({
    method: "POST",
    path: "/v1/merchants/team/invitations/accept",
    tag: "Team",
    summary: "Accept an invitation: join the team and get a session",
    description:
      "The token is the last part of the emailed link. With the email's own password if it has an account; else the password chosen now makes the account.",
    auth: "none",
    body: AcceptInvitationBody,
    status: 200,
    response: LoginResponse,
    errors: ["invalid_token", "invalid_credentials", "rate_limited"],
    example: { token: `inv_${"x".repeat(43)}`, password: "a new long passphrase" },
    responseHeaders: DeviceCookieHeaders,
    handler: async ({ body, clientAddress, headers }) => {
      const { device, ...session } = await acceptInvitation({ ...body, clientAddress });
      return withHeaders(session, { "set-cookie": apiDeviceCookie(device, headers) });
    },
  }),
};
