// POST /v1/merchants/auth/signup - create a merchant; answers its keys (shown once) and a session.
import { routes } from "@/lib/http/routes";
import { merchantsEndpoints } from "@/lib/merchants/endpoints";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes(merchantsEndpoints.signup);
