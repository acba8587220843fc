// GET /dashboard/api/payments/export?status=&channel=&currency=&from=&to=&q= - the filtered payments of the
// console's mode as CSV, streamed: rows are read a page at a time as the download drains, so no export,
// however long, is held in memory (lib/console/payments-csv.ts).
import { Readable } from "node:stream";
import { PaymentFiltersQuery, toTransactionFilters } from "@/lib/console/payment-filters";
import { paymentsCsv } from "@/lib/console/payments-csv";
import { sessionFromRequest } from "@/lib/console/session";
import { failureBody, jsonResponse } from "@/lib/http/envelope";
import { isAppError } from "@/lib/http/errors";
import { parseOrThrow } from "@/lib/http/validation";
import { methodsNotAllowed } from "@/lib/http/with-api";

export async function GET(request: Request) {
  let csv: Readable;
  let mode: string;
  try {
    const merchant = await sessionFromRequest(request);
    const query = parseOrThrow(
      PaymentFiltersQuery.omit({ cursor: true }).strict(),
      Object.fromEntries(new URL(request.url).searchParams),
      "query",
    );
    mode = merchant.mode;
    csv = paymentsCsv({
      merchantId: merchant.merchantId,
      mode: merchant.mode,
      filters: toTransactionFilters(query),
    });
  } catch (err) {
    if (isAppError(err)) return jsonResponse(err.status, failureBody(err.code, err.message));
    throw err;
  }
  const stamp = new Date().toISOString().slice(0, 10);
  return new Response(Readable.toWeb(csv) as ReadableStream<Uint8Array>, {
    headers: {
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": `attachment; filename="payments-${mode}-${stamp}.csv"`,
      "cache-control": "no-store",
      "x-content-type-options": "nosniff",
    },
  });
}

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed("GET");
