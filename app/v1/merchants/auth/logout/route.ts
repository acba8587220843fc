// POST /v1/merchants/auth/logout - end the calling session (session token).
import { methodsNotAllowed, withApi } from "@/lib/http/with-api";
import { logoutMerchant } from "@/lib/merchants/logout-merchant";

export const POST = withApi({ auth: "session" }, async ({ auth }) => ({
  data: await logoutMerchant({ sessionId: auth.sessionId }),
}));

export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed("POST");
