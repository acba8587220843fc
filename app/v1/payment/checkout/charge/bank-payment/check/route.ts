// POST /v1/payment/checkout/charge/bank-payment/check - ask the bank payment's rail where it stands (access code).
import { checkBankPayment } from "@/lib/channels/check-bank-payment";
import { EmptyBody } from "@/lib/channels/schemas";
import { methodsNotAllowed, withApi } from "@/lib/http/with-api";

export const POST = withApi({ auth: "access_code", body: EmptyBody }, async ({ auth }) => ({
  data: await checkBankPayment({ principal: auth }),
}));

export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed("POST");
