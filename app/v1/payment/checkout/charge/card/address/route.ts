// POST /v1/payment/checkout/charge/card/address - the card's billing address, for address verification (access code).
import { AddressBody } from "@/lib/channels/schemas";
import { submitCardStep } from "@/lib/channels/submit-card-step";
import { methodsNotAllowed, withApi } from "@/lib/http/with-api";

export const POST = withApi({ auth: "access_code", body: AddressBody }, async ({ auth, body }) => ({
  data: await submitCardStep({ principal: auth, answer: { step: "address", ...body } }),
}));

export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed("POST");
