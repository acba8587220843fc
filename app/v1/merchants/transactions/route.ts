// GET /v1/merchants/transactions - the merchant's transactions in this deployment's mode (session token).
import { methodsNotAllowed, withApi } from "@/lib/http/with-api";
import { TransactionsQuery } from "@/lib/merchants/schemas";
import { listTransactions } from "@/lib/payments/list-transactions";

export const GET = withApi({ auth: "session", query: TransactionsQuery }, async ({ auth, query }) => ({
  data: await listTransactions({ merchantId: auth.merchantId, mode: auth.mode, ...query }),
}));

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed("GET");
