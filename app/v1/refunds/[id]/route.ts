// GET /v1/refunds/{id} - one of the merchant's refunds (secret key).
import { methodsNotAllowed, withApi } from "@/lib/http/with-api";
import { getRefund } from "@/lib/refunds/list-refunds";
import { RefundParams } from "@/lib/refunds/schemas";

export const GET = withApi({ auth: "secret_key", params: RefundParams }, async ({ auth, params }) => ({
  data: await getRefund({ merchantId: auth.merchantId, mode: auth.mode, id: params.id }),
}));

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed("GET");
