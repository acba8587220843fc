// POST /v1/payment/checkout/charge/bank-transfer - issue (or repeat) the one-time virtual account (access code).
import { z } from "zod";
import { chargeBankTransfer } from "@/lib/channels/charge-bank-transfer";
import { methodsNotAllowed, withApi } from "@/lib/http/with-api";

export const POST = withApi({ auth: "access_code", body: z.strictObject({}) }, async ({ auth }) => ({
  data: await chargeBankTransfer({ principal: auth }),
}));

export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed("POST");
