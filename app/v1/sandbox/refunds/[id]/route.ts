// POST /v1/sandbox/refunds/{id} - test mode: the sandbox bank settles a pending refund now.
import { methodsNotAllowed, withApi } from "@/lib/http/with-api";
import { sandboxSettleRefund } from "@/lib/refunds/sandbox-settle-refund";
import { RefundParams, SandboxRefundBody } from "@/lib/refunds/schemas";

export const POST = withApi(
  { auth: "secret_key", body: SandboxRefundBody, params: RefundParams },
  async ({ auth, body, params }) => ({
    data: await sandboxSettleRefund({ principal: auth, id: params.id, outcome: body.outcome }),
  }),
);

export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed("POST");
