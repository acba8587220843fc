// POST /v1/payment/checkout/charge/card/phone - the phone number the card's network asks for (access code).
import { PhoneBody } from "@/lib/channels/schemas";
import { submitCardStep } from "@/lib/channels/submit-card-step";
import { methodsNotAllowed, withApi } from "@/lib/http/with-api";

export const POST = withApi({ auth: "access_code", body: PhoneBody }, async ({ auth, body }) => ({
  data: await submitCardStep({ principal: auth, answer: { step: "phone", phone: body.phone } }),
}));

export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed("POST");
