// GET, PUT /v1/merchants/paystack - the merchant's own Paystack account of a mode: see it, connect or replace its key.
import { methodsNotAllowed, withApi } from "@/lib/http/with-api";
import { connectPaystack } from "@/lib/merchants/connect-paystack";
import { getPaystackConnection } from "@/lib/merchants/get-paystack-connection";
import { PaystackConnectBody, PaystackModeQuery } from "@/lib/merchants/schemas";

export const GET = withApi({ auth: "session", query: PaystackModeQuery }, async ({ auth, query }) => ({
  data: await getPaystackConnection({ merchantId: auth.merchantId, mode: query.mode }),
}));

export const PUT = withApi({ auth: "session", body: PaystackConnectBody }, async ({ auth, body }) => ({
  data: await connectPaystack({ merchantId: auth.merchantId, ...body }),
}));

export const { POST, PATCH, DELETE, OPTIONS } = methodsNotAllowed("GET", "PUT");
