// GET /v1/payment/verify/{reference} - the canonical server-side lookup before fulfilling (secret key).
import { methodsNotAllowed, withApi } from "@/lib/http/with-api";
import { ReferenceParams } from "@/lib/payments/schemas";
import { verifyPayment } from "@/lib/payments/verify-payment";

export const GET = withApi({ auth: "secret_key", params: ReferenceParams }, async ({ auth, params }) => ({
  data: await verifyPayment({ merchantId: auth.merchantId, mode: auth.mode, reference: params.reference }),
}));

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed("GET");
