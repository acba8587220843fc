// POST /v1/merchants/paystack/disconnect - forget the merchant's Paystack key of a mode.
import { methodsNotAllowed, withApi } from "@/lib/http/with-api";
import { disconnectPaystack } from "@/lib/merchants/disconnect-paystack";
import { PaystackModeBody } from "@/lib/merchants/schemas";

export const POST = withApi({ auth: "session", body: PaystackModeBody }, async ({ auth, body }) => ({
  data: await disconnectPaystack({ merchantId: auth.merchantId, mode: body.mode }),
}));

export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed("POST");
