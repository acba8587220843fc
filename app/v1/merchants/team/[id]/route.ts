// PATCH /v1/merchants/team/{id} {role}, DELETE /v1/merchants/team/{id} - change a member's role, remove a member (session token).
import { routes } from "@/lib/http/routes";
import { teamEndpoints } from "@/lib/team/endpoints";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes(
  teamEndpoints.changeRole,
  teamEndpoints.remove,
);
