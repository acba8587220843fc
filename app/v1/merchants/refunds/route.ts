// POST /v1/merchants/refunds - refund a paid transaction; GET - the merchant's refunds (session token).
import { created, methodsNotAllowed, withApi } from "@/lib/http/with-api";
import { createRefund } from "@/lib/refunds/create-refund";
import { listRefunds } from "@/lib/refunds/list-refunds";
import { CreateRefundBody, RefundsQuery } from "@/lib/refunds/schemas";

export const POST = withApi(
  { auth: "session", body: CreateRefundBody },
  async ({ auth, body, idempotencyKey }) =>
    created(await createRefund({ merchantId: auth.merchantId, mode: auth.mode, idempotencyKey, ...body })),
);

export const GET = withApi({ auth: "session", query: RefundsQuery }, async ({ auth, query }) => ({
  data: await listRefunds({ merchantId: auth.merchantId, mode: auth.mode, ...query }),
}));

export const { PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed("GET", "POST");
