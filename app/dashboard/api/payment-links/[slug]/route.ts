// PATCH /dashboard/api/payment-links/{slug} - change or deactivate one of the merchant's links.

import { assertServedMode } from "@/lib/core/assert-served-mode";
import { parseOrThrow } from "@/lib/core/validation";
import { methodsNotAllowed } from "@/lib/http/with-api";
import { withConsole } from "@/lib/http/with-console";
import { SlugParams, UpdateLinkBody } from "@/lib/links/schemas";
import { updatePaymentLink } from "@/lib/links/update-payment-link";

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
