// POST /v1/payment/initialize - create a pending transaction and its checkout session (secret key).
import { created, methodsNotAllowed, withApi } from "@/lib/http/with-api";
import { initializePayment } from "@/lib/payments/initialize-payment";
import { InitializeBody } from "@/lib/payments/schemas";

export const POST = withApi(
  { auth: "secret_key", body: InitializeBody },
  async ({ auth, body, idempotencyKey, idempotencyRequestHash }) =>
    created(
      await initializePayment({
        merchantId: auth.merchantId,
        mode: auth.mode,
        merchant: auth.merchant,
        payment: body,
        idempotency:
          idempotencyKey !== null && idempotencyRequestHash !== null
            ? { key: idempotencyKey, requestHash: idempotencyRequestHash }
            : null,
      }),
    ),
);

export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed("POST");
