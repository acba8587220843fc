import { auditContext } from "@/lib/audit/record";
import { defineEndpoint } from "@/lib/core/endpoint";
import { createRefund } from "./create-refund";
import { getRefund, listRefunds } from "./list-refunds";
import { RefundListResponse, RefundResponse } from "./responses";
import { sandboxSettleRefund } from "./sandbox-settle-refund";
import { CreateRefundBody, RefundParams, RefundsQuery, SandboxRefundBody } from "./schemas";

const CREATE_DESCRIPTION =
  "Without `amount`, everything still refundable. Refunds of one payment never exceed what it collected, however many are asked at once.";
const CREATE_EXAMPLE = {
  reference: "PAY_TXN_8Q2M4K7ZP1XW3N5R6T9Y",
  amount: "2500.00",
  reason: "Returned item",
};

/** Refunds (docs/refunds.md): the same three calls with the secret key and with a session, and the sandbox bank. */
export const refundsEndpoints = {
  create: defineEndpoint({
    method: "POST",
    path: "/v1/refunds",
    tag: "Refunds",
    summary: "Refund all or part of a paid payment",
    description: CREATE_DESCRIPTION,
    auth: "secret_key",
    body: CreateRefundBody,
    status: 201,
    response: RefundResponse,
    errors: ["transaction_not_found", "invalid_state", "refund_exceeds_available"],
    example: CREATE_EXAMPLE,
    handler: ({ auth, body, idempotencyKey, clientAddress }) =>
      createRefund({
        merchantId: auth.merchantId,
        mode: auth.mode,
        idempotencyKey,
        ...body,
        audit: auditContext(auth, clientAddress),
      }),
  }),
  list: defineEndpoint({
    method: "GET",
    path: "/v1/refunds",
    tag: "Refunds",
    summary: "Refunds, newest first",
    auth: "secret_key",
    query: RefundsQuery,
    status: 200,
    response: RefundListResponse,
    handler: ({ auth, query }) => listRefunds({ merchantId: auth.merchantId, mode: auth.mode, ...query }),
  }),
  get: defineEndpoint({
    method: "GET",
    path: "/v1/refunds/{id}",
    tag: "Refunds",
    summary: "One refund",
    auth: "secret_key",
    params: RefundParams,
    status: 200,
    response: RefundResponse,
    errors: ["refund_not_found"],
    handler: ({ auth, params }) => getRefund({ merchantId: auth.merchantId, mode: auth.mode, id: params.id }),
  }),
  consoleCreate: defineEndpoint({
    method: "POST",
    path: "/v1/merchants/refunds",
    tag: "Refunds",
    summary: "Refund all or part of a paid payment (the console's)",
    description: CREATE_DESCRIPTION,
    auth: "session",
    permission: "refunds.write",
    body: CreateRefundBody,
    status: 201,
    response: RefundResponse,
    errors: ["transaction_not_found", "invalid_state", "refund_exceeds_available"],
    example: CREATE_EXAMPLE,
    handler: ({ auth, body, idempotencyKey, clientAddress }) =>
      createRefund({
        merchantId: auth.merchantId,
        mode: auth.mode,
        idempotencyKey,
        ...body,
        audit: auditContext(auth, clientAddress),
      }),
  }),
  consoleList: defineEndpoint({
    method: "GET",
    path: "/v1/merchants/refunds",
    tag: "Refunds",
    summary: "Refunds, newest first (the console's)",
    auth: "session",
    permission: "payments.read",
    query: RefundsQuery,
    status: 200,
    response: RefundListResponse,
    handler: ({ auth, query }) => listRefunds({ merchantId: auth.merchantId, mode: auth.mode, ...query }),
  }),
  consoleGet: defineEndpoint({
    method: "GET",
    path: "/v1/merchants/refunds/{id}",
    tag: "Refunds",
    summary: "One refund (the console's)",
    auth: "session",
    permission: "payments.read",
    params: RefundParams,
    status: 200,
    response: RefundResponse,
    errors: ["refund_not_found"],
    handler: ({ auth, params }) => getRefund({ merchantId: auth.merchantId, mode: auth.mode, id: params.id }),
  }),
  sandboxSettle: defineEndpoint({
    method: "POST",
    path: "/v1/sandbox/refunds/{id}",
    tag: "Sandbox",
    summary: "Test mode: the sandbox bank settles a pending refund now",
    auth: "secret_key",
    params: RefundParams,
    body: SandboxRefundBody,
    status: 200,
    response: RefundResponse,
    errors: ["test_mode_only", "refund_not_found", "invalid_state"],
    example: { outcome: "processed" },
    handler: ({ auth, body, params }) =>
      sandboxSettleRefund({ principal: auth, id: params.id, outcome: body.outcome }),
  }),
};
