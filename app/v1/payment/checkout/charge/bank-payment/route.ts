// POST /v1/payment/checkout/charge/bank-payment - ask the customer's bank for approval in its app (access code).
import { chargeBankPayment } from "@/lib/channels/charge-bank-payment";
import { BankPaymentBody } from "@/lib/channels/schemas";
import { methodsNotAllowed, withApi } from "@/lib/http/with-api";

export const POST = withApi({ auth: "access_code", body: BankPaymentBody }, async ({ auth, body }) => ({
  data: await chargeBankPayment({ principal: auth, ...body }),
}));

export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed("POST");
