// POST /v1/merchants/team/invitations {email, role} - invite someone to the team by email (session token).
import { routes } from "@/lib/http/routes";
import { teamEndpoints } from "@/lib/team/endpoints";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes(teamEndpoints.invite);
