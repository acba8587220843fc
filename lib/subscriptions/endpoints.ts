import { z } from "zod";
import { auditContext } from "@/lib/audit/record";
import { advanceClock } from "@/lib/channels/advance-clock";
import { ClockAdvanceBody } from "@/lib/channels/schemas";
import { defineEndpoint } from "@/lib/core/endpoint";
import { advanceAuthorizationClock } from "@/lib/customers/advance-authorization-clock";
import { AuthorizationResponse } from "@/lib/customers/responses";
import { VerifiedResponse } from "@/lib/payments/responses";
import { assertTestMode } from "@/lib/payments/test-mode";
import { advanceSubscriptionClock } from "./advance-subscription-clock";
import { cancelSubscription } from "./cancel-subscription";
import { createManageLink } from "./create-manage-link";
import { createPlan } from "./create-plan";
import { createSubscription } from "./create-subscription";
import { getPlan } from "./get-plan";
import { getSubscription } from "./get-subscription";
import { listInvoices } from "./list-invoices";
import { listPlans } from "./list-plans";
import { listSubscriptions } from "./list-subscriptions";
import {
  InvoiceListResponse,
  ManageLinkResponse,
  PlanListResponse,
  PlanResponse,
  SubscriptionListResponse,
  SubscriptionResponse,
} from "./responses";
import {
  CancelSubscriptionBody,
  CreatePlanBody,
  CreateSubscriptionBody,
  PlanParams,
  PlansQuery,
  SubscriptionParams,
  SubscriptionsQuery,
  UpdatePlanBody,
  UpdateSubscriptionBody,
} from "./schemas";
import { updatePlan } from "./update-plan";
import { updateSubscription } from "./update-subscription";

/** Plans and subscriptions (docs/guides/subscriptions.md), with the secret key; and the sandbox's clock. */
export const subscriptionsEndpoints = {
  createPlan: defineEndpoint({
    method: "POST",
    path: "/v1/plans",
    tag: "Subscriptions",
    summary: "Create a plan",
    description:
      "A price charged every `interval` (calendar units in UTC), optionally after `trialDays`, and for at most `invoiceLimit` paid periods.",
    auth: "secret_key",
    body: CreatePlanBody,
    status: 201,
    response: PlanResponse,
    example: { name: "Gold", amount: "5000.00", currency: "NGN", interval: "monthly" },
    handler: ({ auth, body, clientAddress }) =>
      createPlan({
        merchantId: auth.merchantId,
        mode: auth.mode,
        plan: body,
        audit: auditContext(auth, clientAddress),
      }),
  }),
  listPlans: defineEndpoint({
    method: "GET",
    path: "/v1/plans",
    tag: "Subscriptions",
    summary: "Plans, newest first",
    auth: "secret_key",
    query: PlansQuery,
    status: 200,
    response: PlanListResponse,
    handler: ({ auth, query }) => listPlans({ merchantId: auth.merchantId, mode: auth.mode, ...query }),
  }),
  getPlan: defineEndpoint({
    method: "GET",
    path: "/v1/plans/{code}",
    tag: "Subscriptions",
    summary: "One plan",
    auth: "secret_key",
    params: PlanParams,
    status: 200,
    response: PlanResponse,
    errors: ["plan_not_found"],
    handler: ({ auth, params }) =>
      getPlan({ merchantId: auth.merchantId, mode: auth.mode, code: params.code }),
  }),
  updatePlan: defineEndpoint({
    method: "PATCH",
    path: "/v1/plans/{code}",
    tag: "Subscriptions",
    summary: "Rename, reprice or deactivate a plan",
    description:
      "A new `amount` applies from each subscription's next period (an invoice already made keeps its amount). `active: false` takes no new subscriptions; existing ones go on. Currency and interval are the plan's for good.",
    auth: "secret_key",
    params: PlanParams,
    body: UpdatePlanBody,
    status: 200,
    response: PlanResponse,
    errors: ["plan_not_found"],
    example: { amount: "6000.00" },
    handler: ({ auth, params, body, clientAddress }) =>
      updatePlan({
        merchantId: auth.merchantId,
        mode: auth.mode,
        code: params.code,
        patch: body,
        audit: auditContext(auth, clientAddress),
      }),
  }),
  createSubscription: defineEndpoint({
    method: "POST",
    path: "/v1/subscriptions",
    tag: "Subscriptions",
    summary: "Subscribe a customer with a saved card",
    description:
      "The first period starts at `startAt` (now by default; after the plan's trial when it has one) and is charged then: the answer says whether a charge made now went through (`active`) or not (`past_due`, tried again on the merchant's retry days). Renewals follow, one invoice and one payment reference per period.",
    auth: "secret_key",
    body: CreateSubscriptionBody,
    status: 201,
    response: SubscriptionResponse,
    errors: [
      "plan_not_found",
      "customer_not_found",
      "authorization_not_found",
      "authorization_inactive",
      "plan_inactive",
      "channel_unavailable",
    ],
    example: {
      customer: "CUS_4GM7QX2LP9ZR8TN3VB6K",
      plan: "PLN_5K2M9Q4ZP1XW3N7R6T8Y",
      authorizationCode: "AUTH_8Q2M4K7ZP1XW3N5R6T9Y",
    },
    handler: ({ auth, body, clientAddress }) =>
      createSubscription({
        merchantId: auth.merchantId,
        mode: auth.mode,
        body,
        audit: auditContext(auth, clientAddress),
      }),
  }),
  listSubscriptions: defineEndpoint({
    method: "GET",
    path: "/v1/subscriptions",
    tag: "Subscriptions",
    summary: "Subscriptions, newest first",
    auth: "secret_key",
    query: SubscriptionsQuery,
    status: 200,
    response: SubscriptionListResponse,
    handler: ({ auth, query }) =>
      listSubscriptions({ merchantId: auth.merchantId, mode: auth.mode, ...query }),
  }),
  getSubscription: defineEndpoint({
    method: "GET",
    path: "/v1/subscriptions/{code}",
    tag: "Subscriptions",
    summary: "One subscription",
    auth: "secret_key",
    params: SubscriptionParams,
    status: 200,
    response: SubscriptionResponse,
    errors: ["subscription_not_found"],
    handler: ({ auth, params }) =>
      getSubscription({ merchantId: auth.merchantId, mode: auth.mode, code: params.code }),
  }),
  updateSubscription: defineEndpoint({
    method: "PATCH",
    path: "/v1/subscriptions/{code}",
    tag: "Subscriptions",
    summary: "Change a subscription's plan (from the next period) or card",
    description:
      "A new `plan` (active, same currency and interval) applies from the next period, without proration. A new `authorizationCode` (a saved card of the same customer) is charged from now on; on a `past_due` subscription it is charged at once for the open invoice.",
    auth: "secret_key",
    params: SubscriptionParams,
    body: UpdateSubscriptionBody,
    status: 200,
    response: SubscriptionResponse,
    errors: [
      "subscription_not_found",
      "plan_not_found",
      "plan_inactive",
      "authorization_not_found",
      "authorization_inactive",
      "subscription_ended",
    ],
    example: { authorizationCode: "AUTH_8Q2M4K7ZP1XW3N5R6T9Y" },
    handler: ({ auth, params, body, clientAddress }) =>
      updateSubscription({
        merchantId: auth.merchantId,
        mode: auth.mode,
        code: params.code,
        patch: body,
        audit: auditContext(auth, clientAddress),
      }),
  }),
  cancelSubscription: defineEndpoint({
    method: "POST",
    path: "/v1/subscriptions/{code}/cancel",
    tag: "Subscriptions",
    summary: "Cancel a subscription, at once or at the end of its period",
    description:
      "At once: nothing more is charged and its open invoice is void. `atPeriodEnd: true`: it runs until the paid period ends, then is cancelled instead of renewed (a past-due one, whose period is unpaid, is cancelled at once). One that has ended answers 409 `subscription_ended` and nothing changes.",
    auth: "secret_key",
    params: SubscriptionParams,
    body: CancelSubscriptionBody,
    status: 200,
    response: SubscriptionResponse,
    errors: ["subscription_not_found", "subscription_ended"],
    example: { atPeriodEnd: true },
    handler: ({ auth, params, body, clientAddress }) =>
      cancelSubscription({
        audit: auditContext(auth, clientAddress),
        merchantId: auth.merchantId,
        mode: auth.mode,
        code: params.code,
        atPeriodEnd: body.atPeriodEnd,
      }),
  }),
  listInvoices: defineEndpoint({
    method: "GET",
    path: "/v1/subscriptions/{code}/invoices",
    tag: "Subscriptions",
    summary: "A subscription's invoices, newest period first",
    description:
      "One per period. Each charge of an invoice is a payment (`reference`): verify it like any payment.",
    auth: "secret_key",
    params: SubscriptionParams,
    status: 200,
    response: InvoiceListResponse,
    errors: ["subscription_not_found"],
    handler: ({ auth, params }) =>
      listInvoices({ merchantId: auth.merchantId, mode: auth.mode, code: params.code }),
  }),
  manageLink: defineEndpoint({
    method: "POST",
    path: "/v1/subscriptions/{code}/manage-link",
    tag: "Subscriptions",
    summary: "A link to the customer's own page of the subscription",
    description:
      "The page shows the plan, the next charge and the card; the customer can change the card (on the hosted checkout) and cancel at the period's end. The link opens this subscription only, for 7 days.",
    auth: "secret_key",
    params: SubscriptionParams,
    status: 201,
    response: ManageLinkResponse,
    errors: ["subscription_not_found"],
    handler: ({ auth, params }) =>
      createManageLink({ merchantId: auth.merchantId, mode: auth.mode, code: params.code }),
  }),
  clockAdvance: defineEndpoint({
    method: "POST",
    path: "/v1/sandbox/clock/advance",
    tag: "Sandbox",
    summary: "Test mode: move one transaction's, saved card's or subscription's clock forward",
    description:
      "With `reference`: the payment's deadlines come `seconds` closer and what falls due runs at once; answers as verify. With `authorization`: the saved card's clock moves (a card whose expiry passes is `expired`); answers the authorization. With `subscription`: its clock moves (up to 400 days) and every renewal and retry that falls due runs at once, in order; answers the subscription.",
    auth: "secret_key",
    body: ClockAdvanceBody,
    status: 200,
    response: z.union([VerifiedResponse, AuthorizationResponse, SubscriptionResponse]),
    errors: ["test_mode_only", "transaction_not_found", "authorization_not_found", "subscription_not_found"],
    example: { reference: "PAY_TXN_8Q2M4K7ZP1XW3N5R6T9Y", seconds: 1800 },
    handler: async ({ auth, body }) => {
      if (body.subscription) {
        return advanceSubscriptionClock({
          merchantId: auth.merchantId,
          mode: auth.mode,
          code: body.subscription,
          seconds: body.seconds,
        });
      }
      if (body.authorization) {
        assertTestMode(auth.mode);
        return advanceAuthorizationClock({
          merchantId: auth.merchantId,
          mode: auth.mode,
          code: body.authorization,
          seconds: body.seconds,
        });
      }
      return advanceClock({ principal: auth, reference: body.reference ?? "", seconds: body.seconds });
    },
  }),
};
