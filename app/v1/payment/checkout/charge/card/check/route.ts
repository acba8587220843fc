// POST /v1/payment/checkout/charge/card/check - ask the card's network where the payment stands (access code).
import { checkCardCharge } from "@/lib/channels/check-card-charge";
import { EmptyBody } from "@/lib/channels/schemas";
import { methodsNotAllowed, withApi } from "@/lib/http/with-api";

export const POST = withApi({ auth: "access_code", body: EmptyBody }, async ({ auth }) => ({
  data: await checkCardCharge({ principal: auth }),
}));

export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed("POST");
