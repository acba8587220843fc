// GET /v1/merchants/payment-links/{slug}/display - public: what the link's start page shows, nothing private.
import { methodsNotAllowed, withApi } from "@/lib/http/with-api";
import { displayPaymentLink } from "@/lib/links/display-payment-link";
import { SlugParams } from "@/lib/links/schemas";

export const GET = withApi({ auth: "none", params: SlugParams }, async ({ params }) => ({
  data: await displayPaymentLink({ slug: params.slug }),
}));

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed("GET");
