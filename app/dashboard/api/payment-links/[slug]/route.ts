// PATCH /dashboard/api/payment-links/{slug} - change or deactivate one of the merchant's links.
import { withConsole } from "@/lib/console/with-console";
import { parseOrThrow } from "@/lib/http/validation";
import { methodsNotAllowed } from "@/lib/http/with-api";
import { SlugParams, UpdateLinkBody } from "@/lib/links/schemas";
import { updatePaymentLink } from "@/lib/links/update-payment-link";
import { assertServedMode } from "@/lib/merchants/assert-served-mode";

export const PATCH = withConsole(
  { session: true, body: UpdateLinkBody },
  async ({ merchant, body, params }) => {
    assertServedMode(merchant.mode);
    const { slug } = parseOrThrow(SlugParams, { slug: params.slug }, "path");
    return {
      data: await updatePaymentLink({
        merchantId: merchant.merchantId,
        mode: merchant.mode,
        slug,
        changes: body,
      }),
    };
  },
);

export const { GET, POST, PUT, DELETE, OPTIONS } = methodsNotAllowed("PATCH");
