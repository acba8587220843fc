// POST /dashboard/api/paystack/disconnect {mode} - forget the merchant's Paystack key of a mode.

import { methodsNotAllowed } from "@/lib/http/with-api";
import { withConsole } from "@/lib/http/with-console";
import { disconnectPaystack } from "@/lib/merchants/disconnect-paystack";
import { PaystackModeBody } from "@/lib/merchants/schemas";

export const POST = withConsole({ session: true, body: PaystackModeBody }, async ({ merchant, body }) => ({
  data: await disconnectPaystack({ merchantId: merchant.merchantId, mode: body.mode }),
}));

export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed("POST");
