import { pipeline, Readable } from "node:stream";
import { stringify } from "csv-stringify";
import type { Mode } from "@/lib/db/schema";
import { log } from "@/lib/log";
import { listTransactions, type TransactionFilters } from "@/lib/payments/list-transactions";
import { refundCounts } from "./refund-counts";

export const CSV_COLUMNS = [
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
  // What came back to the customer: merchant refunds not failed (pending or processed), as verify's
  // amountRefunded; amount_settled above is what the payment settled at, before them.
  "amount_refunded",
  "refund_count",
  // The merchant's metadata of initialize, as JSON (empty when there is none).
  "metadata",
] as const;

/** A spreadsheet runs a cell that starts with = + - @ as a formula: such text is exported with a leading '. */
export function csvSafe(value: string): string {
  return /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
}

/**
 * The filtered payments of one merchant and mode as a CSV stream, newest first. Rows are read a page at a time
 * by keyset pagination, and only when the reader has drained the rows before them (the async generator is
 * pulled by the CSV stringifier, which stops pulling while its buffer is full): however many payments there
 * are, one page is in memory. `onPage` is told each page's size as it is read. A page that cannot be read
 * ends the stream with that error (logged once).
 */
export function paymentsCsv(
  input: { merchantId: string; mode: Mode; filters: TransactionFilters },
  options: { pageSize?: number; onPage?: (rows: number) => void } = {},
): Readable {
  const pageSize = options.pageSize ?? 500;
  async function* rows() {
    let cursor: string | undefined;
    do {
      const page = await listTransactions({
        merchantId: input.merchantId,
        mode: input.mode,
        limit: pageSize,
        cursor,
        ...input.filters,
      });
      options.onPage?.(page.transactions.length);
      const refunds = await refundCounts(
        input,
        page.transactions.map((t) => t.id),
      );
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
          csvSafe(t.customer.email ?? ""),
          csvSafe(t.customer.name ?? ""),
          t.amountRefunded,
          refunds.get(t.id) ?? 0,
          Object.keys(t.metadata).length ? csvSafe(JSON.stringify(t.metadata)) : "",
        ];
      }
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
  }
  // pipeline, not pipe: a failure part-way (a query the database refuses, the database going away) destroys
  // the CSV stream with the error, so the download ends instead of waiting for rows that never come, and the
  // failure is logged here, once, instead of escaping as an uncaught exception.
  return pipeline(Readable.from(rows()), stringify({ header: true, columns: [...CSV_COLUMNS] }), (err) => {
    if (err && !isPrematureClose(err)) {
      log.error("payments CSV export failed part-way", {
        merchantId: input.merchantId,
        mode: input.mode,
        error: err instanceof Error ? err.message : String(err),
      });
    }
  });
}

/** The reader went away before the end (a cancelled download): not a failure of the export. */
function isPrematureClose(err: NodeJS.ErrnoException): boolean {
  return err.code === "ERR_STREAM_PREMATURE_CLOSE";
}
