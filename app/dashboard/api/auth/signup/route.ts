// POST /dashboard/api/auth/signup - create a merchant (same verb, rules and rate limit as the API's signup),
// sign it in with a cookie, and answer its two secret keys, which are shown this once.
import { deviceCookieOptions, SESSION_COOKIE, sessionCookieOptions } from "@/lib/console/cookies";
import { methodsNotAllowed } from "@/lib/http/with-api";
import { withConsole } from "@/lib/http/with-console";
import { SignupBody } from "@/lib/merchants/schemas";
import { signupMerchant } from "@/lib/merchants/signup-merchant";
import { DEVICE_COOKIE } from "@/lib/security/known-device";

export const POST = withConsole(
  { session: false, body: SignupBody },
  async ({ body, clientAddress, https }) => {
    const { accessToken, expiresAt, merchant, keys, device } = await signupMerchant({
      ...body,
      clientAddress,
    });
    return {
      status: 201,
      data: { merchant, keys },
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
