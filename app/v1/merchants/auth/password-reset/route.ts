// POST /v1/merchants/auth/password-reset {email} - email a reset link (202 for any email).
import { routes } from "@/lib/http/routes";
import { merchantsEndpoints } from "@/lib/merchants/endpoints";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes(merchantsEndpoints.passwordReset);
