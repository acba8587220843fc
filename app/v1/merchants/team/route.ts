// GET /v1/merchants/team - the members and open invitations (session token).
import { routes } from "@/lib/http/routes";
import { teamEndpoints } from "@/lib/team/endpoints";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes(teamEndpoints.list);
