// POST/GET /v1/merchants/payment-links - create a payment link, or list them (session token, never the secret key).
import { deploymentMode } from "@/lib/env";
import { created, methodsNotAllowed, withApi } from "@/lib/http/with-api";
import { createPaymentLink } from "@/lib/links/create-payment-link";
import { listPaymentLinks } from "@/lib/links/list-payment-links";
import { CreateLinkBody, LinksQuery } from "@/lib/links/schemas";

export const POST = withApi({ auth: "session", body: CreateLinkBody }, async ({ auth, body }) =>
  created(await createPaymentLink({ merchantId: auth.merchantId, mode: deploymentMode(), link: body })),
);

export const GET = withApi({ auth: "session", query: LinksQuery }, async ({ auth, query }) => ({
  data: await listPaymentLinks({ merchantId: auth.merchantId, mode: deploymentMode(), ...query }),
}));

export const { PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed("GET", "POST");
