// GET /dashboard/api/payments/{reference} - one payment of the console's mode (server verify's record), for a
// payment page that follows a payment still in progress.

import { parseOrThrow } from "@/lib/core/validation";
import { methodsNotAllowed } from "@/lib/http/with-api";
import { withConsole } from "@/lib/http/with-console";
import { ReferenceParams } from "@/lib/payments/schemas";
import { verifyPayment } from "@/lib/payments/verify-payment";

export const GET = withConsole(
  { session: true, permission: "payments.read" },
  async ({ merchant, params }) => {
    const { reference } = parseOrThrow(ReferenceParams, { reference: params.reference }, "path");
    return { data: await verifyPayment({ merchantId: merchant.merchantId, mode: merchant.mode, reference }) };
  },
);

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed("GET");
