// POST /v1/merchants/team/invitations/accept {token, password} - join a team from an invitation's link.
import { routes } from "@/lib/http/routes";
import { teamEndpoints } from "@/lib/team/endpoints";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes(teamEndpoints.accept);
