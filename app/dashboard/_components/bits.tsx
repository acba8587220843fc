import Link from "next/link";
import type { ReactNode } from "react";
import { PERMISSIONS, type Permission } from "@/lib/core/roles";
import { formatMoney } from "@/lib/i18n/format";
import { badgeTest, card, linkClass, pageTitle, sectionTitle, table, td, th, thead } from "./styles";
import { TableScroll } from "./table-scroll";

/** "2026-11-24T14:05:00.000Z" → "24 Nov 2026, 14:05 UTC" (the same on the server and in the browser). */
export function when(iso: string | null): string {
  if (!iso) return "—";
  const d = new Date(iso);
  const date = d.toLocaleDateString("en-GB", {
    day: "numeric",
    month: "short",
    year: "numeric",
    timeZone: "UTC",
  });
  const time = d.toLocaleTimeString("en-GB", { hour: "2-digit", minute: "2-digit", timeZone: "UTC" });
  return `${date}, ${time} UTC`;
}

export function PageHeader({
  title,
  mode,
  children,
}: {
  title: string;
  mode: "test" | "live";
  children?: ReactNode;
}) {
  return (
    <div className="flex flex-wrap items-center justify-between gap-3">
      <div className="flex items-center gap-3">
        <h1 className={pageTitle}>{title}</h1>
        {mode === "test" && <span className={badgeTest}>Test data</span>}
      </div>
      {children}
    </div>
  );
}

export function Section({ title, children, id }: { title: string; children: ReactNode; id?: string }) {
  const headingId = id ? `${id}-title` : undefined;
  return (
    <section className={card} aria-labelledby={headingId} id={id}>
      <h2 className={sectionTitle} id={headingId}>
        {title}
      </h2>
      <div className="mt-3">{children}</div>
    </section>
  );
}

export function Empty({ children }: { children: ReactNode }) {
  return (
    <p className="rounded-lg bg-slate-50 p-4 text-sm text-slate-700 ring-1 ring-slate-200">{children}</p>
  );
}

const STATUS_STYLE: Record<string, string> = {
  success: "bg-emerald-100 text-emerald-900",
  failed: "bg-red-100 text-red-900",
  abandoned: "bg-slate-200 text-slate-800",
  processed: "bg-emerald-100 text-emerald-900",
};

export function StatusBadge({ status }: { status: string }) {
  return (
    <span
      className={`inline-block rounded-full px-2 py-0.5 text-xs font-semibold ${STATUS_STYLE[status] ?? "bg-sky-100 text-sky-900"}`}
    >
      {status.replaceAll("_", " ")}
    </span>
  );
}

export type PaymentRow = {
  reference: string;
  amount: string;
  currency: string;
  status: string;
  channel: string | null;
  createdAt: string;
  customer: { email: string | null; name: string | null };
};

export function PaymentsTable({
  rows,
  caption,
  mode,
}: {
  rows: PaymentRow[];
  caption: string;
  mode: "test" | "live";
}) {
  return (
    <TableScroll label={caption}>
      <table className={table}>
        <caption className="sr-only">{caption}</caption>
        <thead className={thead}>
          <tr>
            <th scope="col" className={th}>
              Reference
            </th>
            <th scope="col" className={th}>
              Amount
            </th>
            <th scope="col" className={th}>
              Status
            </th>
            <th scope="col" className={th}>
              Customer
            </th>
            <th scope="col" className={th}>
              Channel
            </th>
            <th scope="col" className={th}>
              Created
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {rows.map((t) => (
            <tr key={t.reference}>
              <td data-label="Reference" className={td}>
                <Link href={`/dashboard/payments/${t.reference}`} className={linkClass}>
                  {t.reference}
                </Link>
                {mode === "test" && <span className={`${badgeTest} ml-2`}>Test</span>}
              </td>
              <td data-label="Amount" className={`${td} tabular-nums`}>
                {formatMoney(t.amount, t.currency)}
              </td>
              <td data-label="Status" className={td}>
                <StatusBadge status={t.status} />
              </td>
              <td data-label="Customer" className={td}>
                <span className="block">{t.customer.email ?? "—"}</span>
                {t.customer.name && <span className="block text-slate-600">{t.customer.name}</span>}
              </td>
              <td data-label="Channel" className={td}>
                {t.channel ? t.channel.replaceAll("_", " ") : "—"}
              </td>
              <td data-label="Created" className={td}>
                {when(t.createdAt)}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroll>
  );
}

export type RefundRow = {
  id: string;
  reference: string | null;
  amount: string;
  currency: string;
  status: string;
  reason: string | null;
  type: string;
  failureReason: string | null;
  createdAt: string;
  processedAt: string | null;
};

/** Refunds: the merchant's own and the automatic ones (money that came in but could not be credited). */
export function RefundsTable({
  rows,
  caption,
  mode,
  showReference = true,
}: {
  rows: RefundRow[];
  caption: string;
  mode: "test" | "live";
  showReference?: boolean;
}) {
  return (
    <TableScroll label={caption}>
      <table className={table}>
        <caption className="sr-only">{caption}</caption>
        <thead className={thead}>
          <tr>
            {showReference && (
              <th scope="col" className={th}>
                Payment
              </th>
            )}
            <th scope="col" className={th}>
              Amount
            </th>
            <th scope="col" className={th}>
              Status
            </th>
            <th scope="col" className={th}>
              Kind
            </th>
            <th scope="col" className={th}>
              Reason
            </th>
            <th scope="col" className={th}>
              Asked
            </th>
            <th scope="col" className={th}>
              Settled
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {rows.map((r) => (
            <tr key={r.id}>
              {showReference && (
                <td data-label="Payment" className={td}>
                  {r.reference ? (
                    <Link href={`/dashboard/payments/${r.reference}`} className={linkClass}>
                      {r.reference}
                    </Link>
                  ) : (
                    "—"
                  )}
                  {mode === "test" && <span className={`${badgeTest} ml-2`}>Test</span>}
                </td>
              )}
              <td data-label="Amount" className={`${td} tabular-nums`}>
                {formatMoney(r.amount, r.currency)}
              </td>
              <td data-label="Status" className={td}>
                <StatusBadge status={r.status} />
                {r.failureReason && (
                  <span className="ml-2 text-slate-600">{r.failureReason.replaceAll("_", " ")}</span>
                )}
              </td>
              <td data-label="Kind" className={td}>
                {r.type === "automatic" ? "Automatic" : "By you"}
              </td>
              <td data-label="Reason" className={td}>
                {r.reason ? r.reason.replaceAll("_", " ") : "—"}
              </td>
              <td data-label="Asked" className={td}>
                {when(r.createdAt)}
              </td>
              <td data-label="Settled" className={td}>
                {when(r.processedAt)}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroll>
  );
}

/**
 * What a page shows a member whose role does not allow it (lib/core/roles.ts): its heading, and which
 * permission it needs. The navigation does not link it for them; this answers one who types its address.
 */
export function NotAllowed({
  title,
  mode,
  permission,
}: {
  title: string;
  mode: "test" | "live";
  permission: Permission;
}) {
  return (
    <>
      <PageHeader title={title} mode={mode} />
      <p
        role="alert"
        className="rounded-lg bg-amber-50 p-4 text-sm text-amber-950 ring-1 ring-amber-200"
        data-not-allowed={permission}
      >
        Your role does not allow this page: it needs the permission <code>{permission}</code> (
        {PERMISSIONS[permission]}). An owner or admin of this merchant can change your role on the Team page.
      </p>
    </>
  );
}
