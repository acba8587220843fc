// POST /v1/payment/checkout/cancel - the customer cancels; the transaction ends abandoned (access code).
import { z } from "zod";
import { cancelCheckout } from "@/lib/channels/cancel-checkout";
import { methodsNotAllowed, withApi } from "@/lib/http/with-api";

export const POST = withApi({ auth: "access_code", body: z.strictObject({}) }, async ({ auth }) => ({
  data: await cancelCheckout({ principal: auth }),
}));

export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed("POST");
