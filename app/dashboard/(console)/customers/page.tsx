import type { Metadata } from "next";
import Link from "next/link";
import { alertError, inputClass } from "@/components/ui/styles";
import { requireMerchant } from "@/lib/console/session";
import { isAppError } from "@/lib/core/errors";
import { listCustomers } from "@/lib/customers/list-customers";
import { ConsoleCustomersQuery } from "@/lib/customers/schemas";
import { consolePageQuery } from "@/lib/http/console-query";
import { Empty, NotAllowed, PageHeader, when } from "../../_components/bits";
import { buttonSmall, card, linkClass, table, td, th } from "../../_components/styles";
import { TableScroll } from "../../_components/table-scroll";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Customers" };

const PAGE_SIZE = 25;

/**
 * The mode's customers, newest first: one per email, made by their first payment (or POST /v1/customers),
 * with how many saved cards each has; searched by part of the email.
 */
export default async function CustomersPage() {
  const member = await requireMerchant();
  const { merchantId, mode } = member;
  if (!member.can("customers.read"))
    return <NotAllowed title="Customers" mode={mode} permission="customers.read" />;
  const parsed = await consolePageQuery(ConsoleCustomersQuery, { dropEmpty: true });
  let problem: string | null = parsed.ok ? null : parsed.problem;
  const q = parsed.ok ? parsed.data.q : undefined;
  let result: Awaited<ReturnType<typeof listCustomers>> = { customers: [], nextCursor: null };
  if (parsed.ok) {
    try {
      result = await listCustomers({
        merchantId,
        mode,
        limit: PAGE_SIZE,
        emailContains: q || undefined,
        cursor: parsed.data.cursor,
      });
    } catch (err) {
      if (!isAppError(err) || err.code !== "validation_error") throw err;
      problem = `This page of results is no longer valid (${err.message.replace(/\.$/, "")}); start again from the first page.`;
    }
  }
  const query = (extra: Record<string, string> = {}) => {
    const params = new URLSearchParams({ ...(q && { q }), ...extra });
    const text = params.toString();
    return text ? `?${text}` : "";
  };
  return (
    <>
      <PageHeader title="Customers" mode={mode} />
      <p className="text-sm text-slate-700">
        One customer per email: made by their first payment, or with POST /v1/customers. A customer&apos;s
        page shows their payments and the cards they saved, with the consent they gave.
      </p>
      <search aria-label="Search customers">
        <form method="get" className={`${card} flex flex-wrap items-end gap-3`}>
          <div className="min-w-0 flex-1">
            <label htmlFor="q" className="block text-sm font-medium text-slate-800">
              Email
            </label>
            <input
              id="q"
              name="q"
              type="search"
              defaultValue={q ?? ""}
              aria-describedby="q-hint"
              className={inputClass}
            />
            <p id="q-hint" className="mt-1 text-sm text-slate-600">
              All or part of the customer&apos;s email.
            </p>
          </div>
          <button type="submit" className={buttonSmall}>
            Search
          </button>
          {q && (
            <Link href="/dashboard/customers" className={linkClass}>
              Clear
            </Link>
          )}
        </form>
      </search>
      {problem ? (
        <p role="alert" className={alertError}>
          {problem}
        </p>
      ) : result.customers.length === 0 ? (
        <Empty>{q ? `No customer's email contains “${q}”.` : `No ${mode} customers yet.`}</Empty>
      ) : (
        <div className={card}>
          <TableScroll label="Customers">
            <table className={table}>
              <caption className="sr-only">Customers</caption>
              <thead>
                <tr>
                  <th scope="col" className={th}>
                    Email
                  </th>
                  <th scope="col" className={th}>
                    Name
                  </th>
                  <th scope="col" className={th}>
                    Saved cards
                  </th>
                  <th scope="col" className={th}>
                    Since
                  </th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100">
                {result.customers.map((c) => (
                  <tr key={c.code}>
                    <td className={td}>
                      <Link href={`/dashboard/customers/${c.code}`} className={linkClass}>
                        {c.email}
                      </Link>
                    </td>
                    <td className={td}>{c.name ?? "—"}</td>
                    <td className={`${td} tabular-nums`}>
                      {c.authorizations.filter((a) => a.status === "active").length} active
                      {c.authorizations.length > 0 && ` of ${c.authorizations.length}`}
                    </td>
                    <td className={td}>{when(c.createdAt)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroll>
          <nav aria-label="Pages of customers" className="mt-4 flex gap-4 text-sm">
            {parsed.ok && parsed.data.cursor && (
              <Link href={`/dashboard/customers${query()}`} className={linkClass}>
                First page
              </Link>
            )}
            {result.nextCursor && (
              <Link
                href={`/dashboard/customers${query({ cursor: result.nextCursor })}`}
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
