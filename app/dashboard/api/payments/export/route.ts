// GET /dashboard/api/payments/export?status=&channel=&currency=&from=&to=&q= - the filtered payments of the
// console's mode as CSV, streamed: rows are read a page at a time as the download drains, so no export,
// however long, is held in memory.
import { Readable } from "node:stream";
import { stringify } from "csv-stringify";
import { PaymentFiltersQuery, toTransactionFilters } from "@/lib/console/payment-filters";
import { sessionFromRequest } from "@/lib/console/session";
import { failureBody, jsonResponse } from "@/lib/http/envelope";
import { isAppError } from "@/lib/http/errors";
import { parseOrThrow } from "@/lib/http/validation";
import { listTransactions } from "@/lib/payments/list-transactions";

const PAGE = 500;

const COLUMNS = [
  "reference",
  "created_at",
  "status",
  "amount",
  "currency",
  "channel",
  "fees",
  "total",
  "amount_settled",
  "paid_at",
  "customer_email",
  "customer_name",
] as const;

export async function GET(request: Request) {
  let merchant: Awaited<ReturnType<typeof sessionFromRequest>>;
  let filters: ReturnType<typeof toTransactionFilters>;
  try {
    merchant = await sessionFromRequest(request);
    const query = parseOrThrow(
      PaymentFiltersQuery.omit({ cursor: true }).strict(),
      Object.fromEntries(new URL(request.url).searchParams),
      "query",
    );
    filters = toTransactionFilters(query);
  } catch (err) {
    if (isAppError(err)) return jsonResponse(err.status, failureBody(err.code, err.message));
    throw err;
  }

  async function* rows() {
    let cursor: string | undefined;
    do {
      const page = await listTransactions({
        merchantId: merchant.merchantId,
        mode: merchant.mode,
        limit: PAGE,
        cursor,
        ...filters,
      });
      for (const t of page.transactions) {
        yield [
          t.reference,
          t.createdAt,
          t.status,
          t.amount,
          t.currency,
          t.channel ?? "",
          t.fees ?? "",
          t.total ?? "",
          t.amountSettled ?? "",
          t.paidAt ?? "",
          t.customer.email ?? "",
          // A spreadsheet runs a cell that starts with = + - @ as a formula: such names are quoted as text.
          csvSafe(t.customer.name ?? ""),
        ];
      }
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
  }

  const csv = Readable.from(rows()).pipe(stringify({ header: true, columns: [...COLUMNS] }));
  const stamp = new Date().toISOString().slice(0, 10);
  return new Response(Readable.toWeb(csv) as ReadableStream<Uint8Array>, {
    headers: {
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": `attachment; filename="payments-${merchant.mode}-${stamp}.csv"`,
      "cache-control": "no-store",
      "x-content-type-options": "nosniff",
    },
  });
}

function csvSafe(value: string): string {
  return /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
}
