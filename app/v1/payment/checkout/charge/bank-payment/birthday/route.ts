// POST /v1/payment/checkout/charge/bank-payment/birthday - the date of birth the customer's bank asks for (access code).
import { BirthdayBody } from "@/lib/channels/schemas";
import { submitBankStep } from "@/lib/channels/submit-bank-step";
import { methodsNotAllowed, withApi } from "@/lib/http/with-api";

export const POST = withApi({ auth: "access_code", body: BirthdayBody }, async ({ auth, body }) => ({
  data: await submitBankStep({ principal: auth, answer: { step: "birthday", birthday: body.birthday } }),
}));

export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed("POST");
