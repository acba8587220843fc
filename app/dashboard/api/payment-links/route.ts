// POST /dashboard/api/payment-links - create a payment link in the console's mode (the API's schema and verb).

import { assertServedMode } from "@/lib/core/assert-served-mode";
import { methodsNotAllowed } from "@/lib/http/with-api";
import { withConsole } from "@/lib/http/with-console";
import { createPaymentLink } from "@/lib/links/create-payment-link";
import { CreateLinkBody } from "@/lib/links/schemas";

export const POST = withConsole({ session: true, body: CreateLinkBody }, async ({ merchant, body }) => {
  assertServedMode(merchant.mode);
  return {
    status: 201,
    data: await createPaymentLink({ merchantId: merchant.merchantId, mode: merchant.mode, link: body }),
  };
});

export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed("POST");
