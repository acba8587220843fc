// POST /v1/merchants/payment-links/{slug}/pay - public: start paying through a link; answers the transaction session.
import { created, methodsNotAllowed, withApi } from "@/lib/http/with-api";
import { payPaymentLink } from "@/lib/links/pay-payment-link";
import { PayLinkBody, SlugParams } from "@/lib/links/schemas";

export const POST = withApi(
  { auth: "none", params: SlugParams, body: PayLinkBody },
  async ({ params, body, clientAddress }) =>
    created(await payPaymentLink({ slug: params.slug, ...body, clientAddress })),
);

export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed("POST");
