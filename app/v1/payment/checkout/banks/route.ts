// GET /v1/payment/checkout/banks - banks for bank payment and USSD, by country (access code).
import { methodsNotAllowed, withApi } from "@/lib/http/with-api";
import { listBanks } from "@/lib/payments/list-banks";
import { BanksQuery } from "@/lib/payments/schemas";

export const GET = withApi({ auth: "access_code", query: BanksQuery }, async ({ auth, query }) => ({
  data: await listBanks({ principal: auth, country: query.country }),
}));

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed("GET");
