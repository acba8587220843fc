// POST /v1/payment/checkout/charge/card/pin - the card's PIN, when its network asks for one (access code).
import { PinBody } from "@/lib/channels/schemas";
import { submitCardStep } from "@/lib/channels/submit-card-step";
import { methodsNotAllowed, withApi } from "@/lib/http/with-api";

export const POST = withApi({ auth: "access_code", body: PinBody }, async ({ auth, body }) => ({
  data: await submitCardStep({ principal: auth, answer: { step: "pin", pin: body.pin } }),
}));

export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed("POST");
