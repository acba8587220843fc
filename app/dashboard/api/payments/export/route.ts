// GET /dashboard/api/payments/export?status=&channel=&currency=&from=&to=&q= - the filtered payments of the
// console's mode as CSV, streamed: rows are read a page at a time as the download drains, so no export,
// however long, is held in memory (lib/console/payments-csv.ts). A failure part-way ends the download.
import { Readable } from "node:stream";
import { PaymentFiltersQuery, toTransactionFilters } from "@/lib/console/payment-filters";
import { paymentsCsv } from "@/lib/console/payments-csv";
import { sessionFromRequest } from "@/lib/console/session";
import { isAppError } from "@/lib/core/errors";
import { assertPermitted } from "@/lib/core/permit";
import { consoleRouteQuery } from "@/lib/http/console-query";
import { failureBody, jsonResponse } from "@/lib/http/envelope";
import { methodsNotAllowed } from "@/lib/http/with-api";
import { newRequestId } from "@/lib/security/tokens";

export async function GET(request: Request) {
  const requestId = newRequestId();
  let csv: Readable;
  let mode: string;
  try {
    const merchant = await sessionFromRequest(request);
    assertPermitted(merchant.principal, "payments.read");
    const query = consoleRouteQuery(PaymentFiltersQuery.omit({ cursor: true }), request);
    mode = merchant.mode;
    csv = paymentsCsv({
      merchantId: merchant.merchantId,
      mode: merchant.mode,
      filters: toTransactionFilters(query),
    });
  } catch (err) {
    if (isAppError(err))
      return jsonResponse(err.status, failureBody(err.code, err.message), { "x-request-id": requestId });
    throw err;
  }
  const stamp = new Date().toISOString().slice(0, 10);
  return new Response(Readable.toWeb(csv) as ReadableStream<Uint8Array>, {
    headers: {
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": `attachment; filename="payments-${mode}-${stamp}.csv"`,
      "cache-control": "no-store",
      "x-content-type-options": "nosniff",
      "x-request-id": requestId,
    },
  });
}

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed("GET");
