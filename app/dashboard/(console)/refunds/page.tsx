import type { Metadata } from "next";
import Link from "next/link";
import { alertError } from "@/components/ui/styles";
import { requireMerchant } from "@/lib/console/session";
import { isAppError } from "@/lib/core/errors";
import { consolePageQuery } from "@/lib/http/console-query";
import { listRefunds } from "@/lib/refunds/list-refunds";
import { REFUND_STATUSES, RefundsQuery } from "@/lib/refunds/schemas";
import { Empty, PageHeader, RefundsTable } from "../../_components/bits";
import { buttonSmall, card, linkClass, selectClass } from "../../_components/styles";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Refunds" };

const PAGE_SIZE = 25;

/**
 * Every refund of the mode, newest first: the merchant's own (from a payment's page or the API) and the
 * automatic ones (a wrong amount, a second payment, a late transfer, a card captured after another channel
 * paid), with their status as the bank settles them.
 */
export default async function RefundsPage() {
  const { merchantId, mode } = await requireMerchant();
  // The API's rules for a query (lib/console/console-query.ts); the filter form sends status= for "Any status".
  const parsed = await consolePageQuery(RefundsQuery, { dropEmpty: true });
  let problem: string | null = parsed.ok ? null : parsed.problem;
  let result: Awaited<ReturnType<typeof listRefunds>> = { refunds: [], nextCursor: null };
  if (parsed.ok) {
    try {
      result = await listRefunds({ ...parsed.data, limit: PAGE_SIZE, merchantId, mode });
    } catch (err) {
      if (!isAppError(err) || err.code !== "validation_error") throw err;
      problem = `This page of results is no longer valid (${err.message.replace(/\.$/, "")}); start again from the first page.`;
    }
  }
  const status = parsed.ok ? parsed.data.status : undefined;
  const query = (extra: Record<string, string> = {}) => {
    const params = new URLSearchParams({ ...(status && { status }), ...extra });
    const text = params.toString();
    return text ? `?${text}` : "";
  };
  return (
    <>
      <PageHeader title="Refunds" mode={mode} />
      <p className="text-sm text-slate-700">
        Refund a payment from its page. Money that came in but could not be credited (a wrong amount, a second
        payment, a late transfer) goes back by itself: those refunds are marked Automatic.
      </p>
      <search aria-label="Filter refunds">
        <form method="get" className={`${card} flex flex-wrap items-end gap-3`}>
          <div>
            <label htmlFor="status" className="block text-sm font-medium text-slate-800">
              Status
            </label>
            <select id="status" name="status" defaultValue={status ?? ""} className={selectClass}>
              <option value="">Any status</option>
              {REFUND_STATUSES.map((s) => (
                <option key={s} value={s}>
                  {s}
                </option>
              ))}
            </select>
          </div>
          <button type="submit" className={buttonSmall}>
            Apply filter
          </button>
          {status && (
            <Link href="/dashboard/refunds" className={linkClass}>
              Clear
            </Link>
          )}
        </form>
      </search>
      {problem ? (
        <p role="alert" className={alertError}>
          {problem}
        </p>
      ) : result.refunds.length === 0 ? (
        <Empty>{status ? `No ${status} refunds.` : `No ${mode} refunds yet.`}</Empty>
      ) : (
        <div className={card}>
          <RefundsTable rows={result.refunds} caption="Refunds" mode={mode} />
          <nav aria-label="Pages of refunds" className="mt-4 flex gap-4 text-sm">
            {parsed.ok && parsed.data.cursor && (
              <Link href={`/dashboard/refunds${query()}`} className={linkClass}>
                First page
              </Link>
            )}
            {result.nextCursor && (
              <Link href={`/dashboard/refunds${query({ cursor: result.nextCursor })}`} className={linkClass}>
                Next page
              </Link>
            )}
          </nav>
        </div>
      )}
    </>
  );
}
