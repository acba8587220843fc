import type { Metadata } from "next";
import Link from "next/link";
import { requireMerchant } from "@/lib/console/session";
import { formatMoney } from "@/lib/i18n/format";
import { listPaymentLinks } from "@/lib/links/list-payment-links";
import { Empty, PageHeader, when } from "../../_components/bits";
import { badgeTest, buttonSmall, card, linkClass, table, td, th, thead } from "../../_components/styles";
import { TableScroll } from "../../_components/table-scroll";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Payment links" };

export default async function LinksPage() {
  const member = await requireMerchant();
  const { merchantId, mode } = member;
  const { links } = await listPaymentLinks({ merchantId, mode, limit: 100 });
  return (
    <>
      <PageHeader title="Payment links" mode={mode}>
        {member.can("links.write") && (
          <Link href="/dashboard/links/new" className={buttonSmall}>
            New payment link
          </Link>
        )}
      </PageHeader>
      {links.length === 0 ? (
        <Empty>
          No {mode} payment links yet. A payment link is a page you share (or print as a QR code) where
          customers pay you without any code on your side.
        </Empty>
      ) : (
        <div className={card}>
          <TableScroll label="Payment links">
            <table className={table}>
              <caption className="sr-only">Payment links</caption>
              <thead className={thead}>
                <tr>
                  <th scope="col" className={th}>
                    Title
                  </th>
                  <th scope="col" className={th}>
                    Amount
                  </th>
                  <th scope="col" className={th}>
                    State
                  </th>
                  <th scope="col" className={th}>
                    Payments
                  </th>
                  <th scope="col" className={th}>
                    Created
                  </th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100">
                {links.map((l) => (
                  <tr key={l.id}>
                    <td data-label="Title" className={td}>
                      <Link href={`/dashboard/links/${l.slug}`} className={linkClass}>
                        {l.title}
                      </Link>
                      {mode === "test" && <span className={`${badgeTest} ml-2`}>Test</span>}
                    </td>
                    <td data-label="Amount" className={`${td} tabular-nums`}>
                      {l.amount
                        ? formatMoney(l.amount, l.currency)
                        : `Customer chooses${l.minAmount ? ` (min ${l.minAmount})` : ""}${l.maxAmount ? ` (max ${l.maxAmount})` : ""}`}
                    </td>
                    <td data-label="State" className={td}>
                      {l.active ? "Active" : "Deactivated"}
                    </td>
                    <td data-label="Payments" className={`${td} tabular-nums`}>
                      {l.usageCount}
                      {l.usageLimit !== null && ` of ${l.usageLimit}`}
                    </td>
                    <td data-label="Created" className={td}>
                      {when(l.createdAt)}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroll>
        </div>
      )}
    </>
  );
}
