// POST /dashboard/api/auth/logout - end the session (its token stops working everywhere) and drop the cookie.
import { clearedCookieOptions, SESSION_COOKIE } from "@/lib/console/cookies";
import { sessionFromRequest } from "@/lib/console/session";
import { isAppError } from "@/lib/core/errors";
import { methodsNotAllowed } from "@/lib/http/with-api";
import { withConsole } from "@/lib/http/with-console";
import { logoutMerchant } from "@/lib/merchants/logout-merchant";

export const POST = withConsole({ session: false }, async ({ request, https }) => {
  try {
    const { principal } = await sessionFromRequest(request);
    await logoutMerchant({ sessionId: principal.sessionId });
  } catch (err) {
    // Already signed out or expired: the cookie still goes.
    if (!isAppError(err) || err.code !== "invalid_session") throw err;
  }
  return {
    data: { signedOut: true },
    cookies: [{ name: SESSION_COOKIE, value: "", options: clearedCookieOptions(https) }],
  };
});

export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed("POST");
