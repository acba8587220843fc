// POST /v1/payment/checkout/charge/card - pay by card: success, failed (with reason) or awaiting_otp (access code).
import { chargeCard } from "@/lib/channels/charge-card";
import { CardBody } from "@/lib/channels/schemas";
import { methodsNotAllowed, withApi } from "@/lib/http/with-api";

export const POST = withApi({ auth: "access_code", body: CardBody }, async ({ auth, body }) => ({
  data: await chargeCard({ principal: auth, card: body }),
}));

export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed("POST");
