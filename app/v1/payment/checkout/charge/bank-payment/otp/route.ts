// POST /v1/payment/checkout/charge/bank-payment/otp - the one-time password the customer's bank sent (access code).
import { OtpBody } from "@/lib/channels/schemas";
import { submitBankStep } from "@/lib/channels/submit-bank-step";
import { methodsNotAllowed, withApi } from "@/lib/http/with-api";

export const POST = withApi({ auth: "access_code", body: OtpBody }, async ({ auth, body }) => ({
  data: await submitBankStep({ principal: auth, answer: { step: "otp", otp: body.otp } }),
}));

export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed("POST");
