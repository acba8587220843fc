// POST /v1/payment/checkout/charge/card/otp - finish a card payment that asked for a one-time password (access code).

import { OtpBody } from "@/lib/channels/schemas";
import { submitCardOtp } from "@/lib/channels/submit-card-otp";
import { methodsNotAllowed, withApi } from "@/lib/http/with-api";

export const POST = withApi({ auth: "access_code", body: OtpBody }, async ({ auth, body }) => ({
  data: await submitCardOtp({ principal: auth, otp: body.otp }),
}));

export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed("POST");
