// POST /v1/payment/checkout/charge/card/birthday - the date of birth the card's network asks for (access code).
import { BirthdayBody } from "@/lib/channels/schemas";
import { submitCardStep } from "@/lib/channels/submit-card-step";
import { methodsNotAllowed, withApi } from "@/lib/http/with-api";

export const POST = withApi({ auth: "access_code", body: BirthdayBody }, async ({ auth, body }) => ({
  data: await submitCardStep({ principal: auth, answer: { step: "birthday", birthday: body.birthday } }),
}));

export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed("POST");
