// POST /v1/payment/checkout/charge/ussd - a code for the customer to dial (access code).
import { chargeUssd } from "@/lib/channels/charge-ussd";
import { UssdBody } from "@/lib/channels/schemas";
import { methodsNotAllowed, withApi } from "@/lib/http/with-api";

export const POST = withApi({ auth: "access_code", body: UssdBody }, async ({ auth, body }) => ({
  data: await chargeUssd({ principal: auth, phoneNumber: body.phoneNumber, bankCode: body.bankCode }),
}));

export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed("POST");
