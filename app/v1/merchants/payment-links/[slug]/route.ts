// GET/PATCH /v1/merchants/payment-links/{slug} - read a link, or change it (deactivate) (session token).
import { deploymentMode } from "@/lib/env";
import { methodsNotAllowed, withApi } from "@/lib/http/with-api";
import { getPaymentLink } from "@/lib/links/get-payment-link";
import { SlugParams, UpdateLinkBody } from "@/lib/links/schemas";
import { updatePaymentLink } from "@/lib/links/update-payment-link";

export const GET = withApi({ auth: "session", params: SlugParams }, async ({ auth, params }) => ({
  data: await getPaymentLink({ merchantId: auth.merchantId, mode: deploymentMode(), slug: params.slug }),
}));

export const PATCH = withApi(
  { auth: "session", params: SlugParams, body: UpdateLinkBody },
  async ({ auth, params, body }) => ({
    data: await updatePaymentLink({
      merchantId: auth.merchantId,
      mode: deploymentMode(),
      slug: params.slug,
      changes: body,
    }),
  }),
);

export const { POST, PUT, DELETE, OPTIONS } = methodsNotAllowed("GET", "PATCH");
