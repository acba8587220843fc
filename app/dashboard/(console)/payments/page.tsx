import type { Metadata } from "next";
import Link from "next/link";
import { alertError, buttonSecondary, inputClass } from "@/components/ui/styles";
import {
  filterQuery,
  type PaymentFilters,
  PaymentFiltersQuery,
  toTransactionFilters,
} from "@/lib/console/payment-filters";
import { requireMerchant } from "@/lib/console/session";
import { isAppError } from "@/lib/core/errors";
import { consolePageQuery } from "@/lib/http/console-query";
import { CURRENCY_CODES } from "@/lib/money/currencies";
import { CHANNELS } from "@/lib/payments/channel-list";
import { listTransactions } from "@/lib/payments/list-transactions";
import { channelName } from "@/lib/payments/payment-timeline";
import { TRANSACTION_STATUSES } from "@/lib/payments/status";
import { Empty, PageHeader, PaymentsTable } from "../../_components/bits";
import { buttonSmall, card, linkClass, selectClass } from "../../_components/styles";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Payments" };

const PAGE_SIZE = 25;

export default async function PaymentsPage() {
  const { merchantId, mode } = await requireMerchant();
  // The API's rules for a query (lib/console/console-query.ts): a bad parameter is named on the page.
  const parsed = await consolePageQuery(PaymentFiltersQuery);
  const filters: PaymentFilters = parsed.ok ? parsed.data : {};
  let problem = parsed.ok ? null : parsed.problem;
  let result: Awaited<ReturnType<typeof listTransactions>> = { transactions: [], nextCursor: null };
  if (!problem) {
    try {
      result = await listTransactions({
        merchantId,
        mode,
        limit: PAGE_SIZE,
        cursor: filters.cursor,
        ...toTransactionFilters(filters),
      });
    } catch (err) {
      if (!isAppError(err) || err.code !== "validation_error") throw err;
      problem = `This page of results is no longer valid (${err.message.replace(/\.$/, "")}); start again from the first page.`;
    }
  }
  const filtered =
    !parsed.ok || (["status", "channel", "currency", "from", "to", "q"] as const).some((k) => filters[k]);
  return (
    <>
      <PageHeader title="Payments" mode={mode}>
        <a
          href={`/dashboard/api/payments/export${filterQuery(filters)}`}
          className={buttonSecondary}
          download
        >
          Export CSV
        </a>
      </PageHeader>
      <search aria-label="Filter payments">
        {/* Two filters a row on a phone, so the payments start on the first screen. */}
        <form method="get" className={`${card} grid grid-cols-2 gap-3 lg:grid-cols-4`}>
          <div className="col-span-2">
            <label htmlFor="q" className="block text-sm font-medium text-slate-800">
              Search
            </label>
            <input
              id="q"
              name="q"
              type="search"
              defaultValue={filters.q ?? ""}
              aria-describedby="q-hint"
              className={inputClass}
            />
            <p id="q-hint" className="mt-1 text-sm text-slate-600 max-sm:sr-only">
              A reference, or part of the customer&apos;s email or name.
            </p>
          </div>
          <div>
            <label htmlFor="status" className="block text-sm font-medium text-slate-800">
              Status
            </label>
            <select id="status" name="status" defaultValue={filters.status ?? ""} className={selectClass}>
              <option value="">Any status</option>
              {TRANSACTION_STATUSES.map((s) => (
                <option key={s} value={s}>
                  {s.replaceAll("_", " ")}
                </option>
              ))}
            </select>
          </div>
          <div>
            <label htmlFor="channel" className="block text-sm font-medium text-slate-800">
              Channel
            </label>
            <select id="channel" name="channel" defaultValue={filters.channel ?? ""} className={selectClass}>
              <option value="">Any channel</option>
              {CHANNELS.map((c) => (
                <option key={c} value={c}>
                  {channelName(c)}
                </option>
              ))}
            </select>
          </div>
          <div>
            <label htmlFor="currency" className="block text-sm font-medium text-slate-800">
              Currency
            </label>
            <select
              id="currency"
              name="currency"
              defaultValue={filters.currency ?? ""}
              className={selectClass}
            >
              <option value="">Any currency</option>
              {CURRENCY_CODES.map((c) => (
                <option key={c} value={c}>
                  {c}
                </option>
              ))}
            </select>
          </div>
          <div>
            <label htmlFor="from" className="block text-sm font-medium text-slate-800">
              From
            </label>
            <input
              id="from"
              name="from"
              type="date"
              defaultValue={filters.from ?? ""}
              className={inputClass}
            />
          </div>
          <div>
            <label htmlFor="to" className="block text-sm font-medium text-slate-800">
              To
            </label>
            <input id="to" name="to" type="date" defaultValue={filters.to ?? ""} className={inputClass} />
          </div>
          <div className="col-span-2 flex items-end gap-3 sm:col-span-1">
            <button type="submit" className={buttonSmall}>
              Apply filters
            </button>
            {filtered && (
              <Link href="/dashboard/payments" className={linkClass}>
                Clear
              </Link>
            )}
          </div>
        </form>
      </search>
      {problem ? (
        <p role="alert" className={alertError}>
          {problem}
        </p>
      ) : result.transactions.length === 0 ? (
        <Empty>
          {filtered || filters.cursor
            ? "No payments match these filters."
            : `No ${mode} payments yet. They appear here as soon as a customer starts paying.`}
        </Empty>
      ) : (
        <div className={card}>
          <PaymentsTable rows={result.transactions} caption="Payments" mode={mode} />
          <nav aria-label="Pages of payments" className="mt-4 flex gap-4 text-sm">
            {filters.cursor && (
              <Link href={`/dashboard/payments${filterQuery(filters)}`} className={linkClass}>
                First page
              </Link>
            )}
            {result.nextCursor && (
              <Link
                href={`/dashboard/payments${filterQuery(filters, { cursor: result.nextCursor })}`}
                className={linkClass}
              >
                Next page
              </Link>
            )}
          </nav>
        </div>
      )}
    </>
  );
}
