// POST /v1/merchants/auth/login - exchange email and password for a merchant session token.
import { methodsNotAllowed, withApi } from "@/lib/http/with-api";
import { loginMerchant } from "@/lib/merchants/login-merchant";
import { LoginBody } from "@/lib/merchants/schemas";

export const POST = withApi({ auth: "none", body: LoginBody }, async ({ body, clientAddress }) => ({
  data: await loginMerchant({ ...body, clientAddress }),
}));

export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed("POST");
