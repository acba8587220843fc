// POST /v1/payment/checkout/charge/bank-transfer/simulate - test mode: fund, fail or abandon (access code).
import { SimulateBody } from "@/lib/channels/schemas";
import { simulateBankTransfer } from "@/lib/channels/simulate-bank-transfer";
import { methodsNotAllowed, withApi } from "@/lib/http/with-api";

export const POST = withApi({ auth: "access_code", body: SimulateBody }, async ({ auth, body }) => ({
  data: await simulateBankTransfer({ principal: auth, scenario: body.scenario }),
}));

export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed("POST");
