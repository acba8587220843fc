import { z } from "zod";
import { ROLES } from "@/lib/core/roles";
import { EmailField } from "@/lib/merchants/schemas";

/** Request schemas of the team endpoints (docs/api.md "Team"). */
export const RoleField = z.enum(ROLES, { message: `must be one of ${ROLES.join(", ")}` });

export const InviteBody = z.strictObject({ email: EmailField, role: RoleField });

export const ChangeRoleBody = z.strictObject({ role: RoleField });

export const TeamMemberParams = z.strictObject({
  id: z.string().regex(/^[0-9a-f-]{36}$/, "must be a member or invitation id from GET /v1/merchants/team"),
});

export const AcceptInvitationBody = z.strictObject({
  token: z.string().min(1, "must not be empty").max(100, "must be at most 100 characters"),
  /** The account's password if the email has one, else the one chosen now (held to the password rules then). */
  password: z.string().min(1, "must not be empty").max(200, "must be at most 200 characters"),
});
