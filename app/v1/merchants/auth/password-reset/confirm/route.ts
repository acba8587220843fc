// POST /v1/merchants/auth/password-reset/confirm {token, password} - set a new password; every session ends.
import { routes } from "@/lib/http/routes";
import { merchantsEndpoints } from "@/lib/merchants/endpoints";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes(merchantsEndpoints.passwordResetConfirm);
