// POST /dashboard/api/refunds {reference, amount?, reason?} - refund all or part of a paid payment in the console's
// mode; GET ?reference=&status=&cursor= - the mode's refunds, newest first.
import { withConsole } from "@/lib/console/with-console";
import { parseOrThrow } from "@/lib/http/validation";
import { methodsNotAllowed } from "@/lib/http/with-api";
import { createRefund } from "@/lib/refunds/create-refund";
import { listRefunds } from "@/lib/refunds/list-refunds";
import { CreateRefundBody, RefundsQuery } from "@/lib/refunds/schemas";

export const POST = withConsole({ session: true, body: CreateRefundBody }, async ({ merchant, body }) => ({
  status: 201,
  data: await createRefund({ merchantId: merchant.merchantId, mode: merchant.mode, ...body }),
}));

export const GET = withConsole({ session: true }, async ({ merchant, request }) => {
  const query = parseOrThrow(RefundsQuery, Object.fromEntries(new URL(request.url).searchParams), "query");
  return { data: await listRefunds({ ...query, merchantId: merchant.merchantId, mode: merchant.mode }) };
});

export const { PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed("GET", "POST");
