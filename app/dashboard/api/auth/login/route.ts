// POST /dashboard/api/auth/login - sign in with email and password (the API's verb and failed-login budget).
import { SESSION_COOKIE, sessionCookieOptions } from "@/lib/console/cookies";
import { methodsNotAllowed } from "@/lib/http/with-api";
import { withConsole } from "@/lib/http/with-console";
import { loginMerchant } from "@/lib/merchants/login-merchant";
import { LoginBody } from "@/lib/merchants/schemas";

export const POST = withConsole(
  { session: false, body: LoginBody },
  async ({ body, clientAddress, https }) => {
    const { accessToken, expiresAt, merchant } = await loginMerchant({ ...body, clientAddress });
    return {
      data: { merchant },
      cookies: [
        { name: SESSION_COOKIE, value: accessToken, options: sessionCookieOptions(expiresAt, https) },
      ],
    };
  },
);

export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed("POST");
