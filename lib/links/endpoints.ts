import { auditContext } from "@/lib/audit/record";
import { defineEndpoint } from "@/lib/core/endpoint";
import { deploymentMode } from "@/lib/env";
import { SessionResponse } from "@/lib/payments/responses";
import { createPaymentLink } from "./create-payment-link";
import { displayPaymentLink } from "./display-payment-link";
import { getPaymentLink } from "./get-payment-link";
import { listPaymentLinks } from "./list-payment-links";
import { payPaymentLink } from "./pay-payment-link";
import { LinkDisplayResponse, LinkListResponse, LinkResponse } from "./responses";
import { CreateLinkBody, LinksQuery, PayLinkBody, SlugParams, UpdateLinkBody } from "./schemas";
import { updatePaymentLink } from "./update-payment-link";

/** Payment links: the merchant's (session token, this deployment's mode) and the public start page's. */
export const linksEndpoints = {
  create: defineEndpoint({
    method: "POST",
    path: "/v1/merchants/payment-links",
    tag: "Payment links",
    summary: "Create a payment link",
    auth: "session",
    permission: "links.write",
    body: CreateLinkBody,
    status: 201,
    response: LinkResponse,
    errors: ["channel_unavailable"],
    example: { title: "Summer tote", amount: "18500.00", currency: "NGN" },
    handler: ({ auth, body, clientAddress }) =>
      createPaymentLink({
        merchantId: auth.merchantId,
        mode: auth.mode,
        link: body,
        audit: auditContext(auth, clientAddress),
      }),
  }),
  list: defineEndpoint({
    method: "GET",
    path: "/v1/merchants/payment-links",
    tag: "Payment links",
    summary: "The merchant's payment links, newest first",
    auth: "session",
    permission: "payments.read",
    query: LinksQuery,
    status: 200,
    response: LinkListResponse,
    handler: ({ auth, query }) =>
      listPaymentLinks({ merchantId: auth.merchantId, mode: deploymentMode(), ...query }),
  }),
  get: defineEndpoint({
    method: "GET",
    path: "/v1/merchants/payment-links/{slug}",
    tag: "Payment links",
    summary: "One payment link",
    auth: "session",
    permission: "payments.read",
    params: SlugParams,
    status: 200,
    response: LinkResponse,
    errors: ["payment_link_not_found"],
    handler: ({ auth, params }) =>
      getPaymentLink({ merchantId: auth.merchantId, mode: deploymentMode(), slug: params.slug }),
  }),
  update: defineEndpoint({
    method: "PATCH",
    path: "/v1/merchants/payment-links/{slug}",
    tag: "Payment links",
    summary: "Change a payment link (deactivate it, say)",
    auth: "session",
    permission: "links.write",
    params: SlugParams,
    body: UpdateLinkBody,
    status: 200,
    response: LinkResponse,
    errors: ["payment_link_not_found", "channel_unavailable"],
    example: { active: false },
    handler: ({ auth, params, body, clientAddress }) =>
      updatePaymentLink({
        merchantId: auth.merchantId,
        mode: auth.mode,
        slug: params.slug,
        changes: body,
        audit: auditContext(auth, clientAddress),
      }),
  }),
  display: defineEndpoint({
    method: "GET",
    path: "/v1/merchants/payment-links/{slug}/display",
    tag: "Payment links",
    summary: "Public: what the link's start page shows",
    auth: "none",
    params: SlugParams,
    status: 200,
    response: LinkDisplayResponse,
    errors: ["payment_link_not_found"],
    handler: ({ params }) => displayPaymentLink({ slug: params.slug }),
  }),
  pay: defineEndpoint({
    method: "POST",
    path: "/v1/merchants/payment-links/{slug}/pay",
    tag: "Payment links",
    summary: "Public: start paying through a link",
    auth: "none",
    params: SlugParams,
    body: PayLinkBody,
    status: 201,
    response: SessionResponse,
    errors: [
      "payment_link_not_found",
      "payment_link_unavailable",
      "rate_limited",
      "channel_unavailable",
      "email_required",
    ],
    example: { email: "customer@example.com" },
    handler: ({ params, body, clientAddress }) =>
      payPaymentLink({ slug: params.slug, ...body, clientAddress }),
  }),
};
