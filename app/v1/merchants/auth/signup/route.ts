// POST /v1/merchants/auth/signup - create a merchant; answers its keys (shown once) and a session.
import { created, methodsNotAllowed, withApi } from "@/lib/http/with-api";
import { SignupBody } from "@/lib/merchants/schemas";
import { signupMerchant } from "@/lib/merchants/signup-merchant";

export const POST = withApi({ auth: "none", body: SignupBody }, async ({ body, clientAddress }) =>
  created(await signupMerchant({ ...body, clientAddress })),
);

export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed("POST");
