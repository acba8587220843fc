import { isAppError } from "@/lib/core/errors";
import { displayPaymentLink } from "@/lib/links/display-payment-link";
import { SlugParams } from "@/lib/links/schemas";
import { authenticateAccessCode } from "@/lib/payments/authenticate-access-code";

const CHECKOUT = /^\/pay\/([^/]+)\/?$/;
const LINK = /^\/l\/([^/]+)\/?$/;

/**
 * Whether `pathname` is a checkout (`/pay/<accessCode>`) or payment link (`/l/<slug>`) page with nothing to
 * show: an unknown or expired access code, an unknown slug. proxy.ts asks before the page renders, so that
 * such an address is answered by the not-found page rendered on the server with a 404 (a page that calls
 * notFound() itself gets Next's empty error shell, which only its JavaScript fills in). The access code is
 * checked by the same rule, and against the same per-address budget of unknown codes, as the API's.
 */
export async function hostedPageMissing(input: {
  pathname: string;
  clientAddress: string;
}): Promise<boolean> {
  try {
    const checkout = CHECKOUT.exec(input.pathname);
    if (checkout) {
      await authenticateAccessCode({
        accessCode: decodeURIComponent(checkout[1] ?? ""),
        clientAddress: input.clientAddress,
      });
      return false;
    }
    const link = LINK.exec(input.pathname);
    if (link) {
      const slug = decodeURIComponent(link[1] ?? "");
      if (!SlugParams.safeParse({ slug }).success) return true;
      await displayPaymentLink({ slug });
    }
    return false;
  } catch (err) {
    if (isAppError(err)) return err.code === "invalid_access_code" || err.code === "payment_link_not_found";
    // Anything else (the database unreachable): the page renders and says what went wrong itself.
    return false;
  }
}
