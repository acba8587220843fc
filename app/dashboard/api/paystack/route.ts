// PUT /dashboard/api/paystack {mode, secretKey} - connect the merchant's Paystack account (the API's schema and verb).

import { methodsNotAllowed } from "@/lib/http/with-api";
import { withConsole } from "@/lib/http/with-console";
import { connectPaystack } from "@/lib/merchants/connect-paystack";
import { PaystackConnectBody } from "@/lib/merchants/schemas";

export const PUT = withConsole({ session: true, body: PaystackConnectBody }, async ({ merchant, body }) => ({
  data: await connectPaystack({ merchantId: merchant.merchantId, ...body }),
}));

export const { GET, POST, PATCH, DELETE, OPTIONS } = methodsNotAllowed("PUT");
