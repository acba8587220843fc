// POST /v1/rails/paystack/webhook - Paystack's signed events (charges, transfers, refunds) for every merchant.

import { receivePaystackWebhook } from "@/lib/channels/receive-paystack-webhook";
import { methodsNotAllowed, withApi } from "@/lib/http/with-api";
import { PaystackWebhookBody, PaystackWebhookQuery } from "@/lib/rails/paystack/schemas";
import { SIGNATURE_HEADER } from "@/lib/rails/paystack/shapes";

export const POST = withApi(
  { auth: "none", body: PaystackWebhookBody, query: PaystackWebhookQuery, rawBody: true },
  async ({ body, query, rawBody, headers, clientAddress }) => ({
    data: await receivePaystackWebhook({
      rawBody,
      body,
      signature: headers.get(SIGNATURE_HEADER),
      clientAddress,
      connection: query.connection,
    }),
  }),
);

export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed("POST");
