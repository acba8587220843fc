// POST /dashboard/api/refunds {reference, amount?, reason?} - refund all or part of a paid payment in the console's
// mode; GET ?reference=&status=&cursor= - the mode's refunds, newest first.
import { consoleRouteQuery } from "@/lib/http/console-query";
import { checkIdempotencyKey } from "@/lib/http/idempotency";
import { methodsNotAllowed } from "@/lib/http/with-api";
import { withConsole } from "@/lib/http/with-console";
import { createRefund } from "@/lib/refunds/create-refund";
import { listRefunds } from "@/lib/refunds/list-refunds";
import { CreateRefundBody, RefundsQuery } from "@/lib/refunds/schemas";

// The Refund form sends one Idempotency-Key per confirmation, so a double click or a retried request never
// refunds twice.
export const POST = withConsole(
  { session: true, body: CreateRefundBody },
  async ({ merchant, body, request }) => {
    const idempotencyKey = request.headers.get("idempotency-key");
    if (idempotencyKey !== null) checkIdempotencyKey(idempotencyKey);
    return {
      status: 201,
      data: await createRefund({
        merchantId: merchant.merchantId,
        mode: merchant.mode,
        idempotencyKey,
        ...body,
      }),
    };
  },
);

export const GET = withConsole({ session: true }, async ({ merchant, request }) => {
  const query = consoleRouteQuery(RefundsQuery, request);
  return { data: await listRefunds({ ...query, merchantId: merchant.merchantId, mode: merchant.mode }) };
});

export const { PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed("GET", "POST");
