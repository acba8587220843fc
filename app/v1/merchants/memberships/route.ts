// GET /v1/merchants/memberships - the signed-in user's merchants and their role in each (session token).
import { routes } from "@/lib/http/routes";
import { merchantsEndpoints } from "@/lib/merchants/endpoints";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes(merchantsEndpoints.memberships);
