// POST /dashboard/api/auth/login - sign in with email and password (the API's verb and failed-login budget).
import { deviceCookieOptions, SESSION_COOKIE, sessionCookieOptions } from "@/lib/console/cookies";
import { methodsNotAllowed } from "@/lib/http/with-api";
import { withConsole } from "@/lib/http/with-console";
import { loginMerchant } from "@/lib/merchants/login-merchant";
import { LoginBody } from "@/lib/merchants/schemas";
import { DEVICE_COOKIE, deviceCookieOf } from "@/lib/security/known-device";

export const POST = withConsole(
  { session: false, body: LoginBody },
  async ({ body, clientAddress, https, request }) => {
    const signedIn = await loginMerchant({
      ...body,
      clientAddress,
      deviceCookie: deviceCookieOf(request.headers.get("cookie")),
    });
    // Two-factor sign-in on: no session yet, the challenge to answer with a code.
    if ("challenge" in signedIn) return { data: signedIn };
    const { accessToken, expiresAt, merchant, device } = signedIn;
    return {
      data: { merchant },
      cookies: [
        { name: SESSION_COOKIE, value: accessToken, options: sessionCookieOptions(expiresAt, https) },
        {
          name: DEVICE_COOKIE,
          value: device.value,
          options: deviceCookieOptions(device.maxAgeSeconds, https),
        },
      ],
    };
  },
);

export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed("POST");
