import { z } from "zod";
import { ROLES } from "@/lib/core/roles";
import { Timestamp } from "@/lib/core/schemas";

const Role = z.enum(ROLES);

export const TeamMember = z.object({
  id: z.string(),
  email: z.email(),
  role: Role,
  status: z.enum(["active", "invited"]),
  lastSignInAt: Timestamp.nullable(),
  /** An invitation's end; null for a member. */
  expiresAt: Timestamp.nullable(),
});

export const TeamResponse = z.array(TeamMember);

export const InvitationResponse = z.object({
  id: z.string(),
  email: z.email(),
  role: Role,
  expiresAt: Timestamp,
});

export const RemovedResponse = z.object({ id: z.string(), removed: z.literal(true) });
