import type { Metadata } from "next";
import Link from "next/link";
import { consoleOverview } from "@/lib/console/overview";
import { requireMerchant } from "@/lib/console/session";
import { formatMoney } from "@/lib/i18n/format";
import { Empty, PageHeader, PaymentsTable, Section, when } from "../_components/bits";
import { card, linkClass } from "../_components/styles";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Overview" };

function Collected({
  title,
  stat,
  rows,
}: {
  title: string;
  stat: string;
  rows: { currency: string; amount: string; count: number }[];
}) {
  return (
    <div className={card}>
      <h2 className="text-sm font-semibold text-slate-700">{title}</h2>
      {rows.length === 0 ? (
        <p className="mt-2 text-2xl font-bold tabular-nums text-slate-900">Nothing yet</p>
      ) : (
        <ul className="mt-2 space-y-1">
          {rows.map((r) => (
            <li
              key={r.currency}
              className="text-2xl font-bold tabular-nums text-slate-900"
              data-stat={`${stat}-${r.currency}`}
            >
              {formatMoney(r.amount, r.currency)}{" "}
              <span className="text-sm font-normal text-slate-600">
                from {r.count} payment{r.count === 1 ? "" : "s"}
              </span>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

export default async function OverviewPage() {
  const { merchantId, mode } = await requireMerchant();
  const o = await consoleOverview({ merchantId, mode });
  const attention: React.ReactNode[] = [];
  if (o.webhook && o.webhook.status !== "enabled") {
    attention.push(
      <li key="webhook" data-attention="webhook-disabled">
        Your webhook endpoint is disabled{o.webhook.disabledReason ? ` (${o.webhook.disabledReason})` : ""}:
        events are not being delivered.{" "}
        <Link href="/dashboard/webhooks" className={linkClass}>
          Check the webhook
        </Link>
      </li>,
    );
  }
  if (o.webhookFailing) {
    const n = o.webhookFailing.failures;
    attention.push(
      <li key="webhook-failing" data-attention="webhook-failing">
        Your webhook endpoint is failing: the last delivery failed ({when(o.webhookFailing.lastFailureAt)}),{" "}
        {n} failed attempt{n === 1 ? "" : "s"} since the last success. It is retried, and disabled if every
        attempt keeps failing.{" "}
        <Link href="/dashboard/webhooks" className={linkClass}>
          See the deliveries
        </Link>
      </li>,
    );
  }
  if (o.refundsDue > 0) {
    attention.push(
      <li key="refunds" data-attention="refunds-pending">
        <Link href="/dashboard/refunds?status=pending" className={linkClass}>
          {o.refundsDue} refund{o.refundsDue === 1 ? "" : "s"} pending
        </Link>{" "}
        (yours, or money that came in but goes back by itself: a wrong amount, a duplicate or a late
        transfer).
      </li>,
    );
  }
  return (
    <>
      <PageHeader title="Overview" mode={mode} />
      <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
        <Collected title="Collected today" stat="today" rows={o.today} />
        <Collected title="Collected in the last 7 days" stat="week" rows={o.week} />
        <div className={card}>
          <h2 className="text-sm font-semibold text-slate-700">Payments in the last 7 days</h2>
          <p className="mt-2 text-2xl font-bold tabular-nums" data-stat="payments">
            {o.payments}
          </p>
        </div>
        <div className={card}>
          <h2 className="text-sm font-semibold text-slate-700">Success rate</h2>
          <p className="mt-2 text-2xl font-bold tabular-nums" data-stat="success-rate">
            {o.successRate === null ? "—" : `${o.successRate}%`}
          </p>
          <p className="text-sm text-slate-600">of finished payments in the last 7 days</p>
        </div>
      </div>
      <p className="text-sm text-slate-600">
        Today is since 00:00 UTC; the last 7 days are the 7 × 24 hours up to now. Amounts are what successful
        payments collected, by the time they were paid.
      </p>
      <Section title="Needs attention" id="attention">
        {attention.length === 0 ? (
          <Empty>Nothing needs your attention.</Empty>
        ) : (
          <ul className="list-disc space-y-2 pl-5 text-sm text-slate-800">{attention}</ul>
        )}
      </Section>
      <Section title="Latest payments" id="latest">
        {o.recent.length === 0 ? (
          <Empty>
            No {mode} payments yet. Create a{" "}
            <Link href="/dashboard/links/new" className={linkClass}>
              payment link
            </Link>{" "}
            or initialize a payment with your secret key.
          </Empty>
        ) : (
          <>
            <PaymentsTable rows={o.recent} caption="Latest payments" mode={mode} />
            <p className="mt-3 text-sm">
              <Link href="/dashboard/payments" className={linkClass}>
                All payments
              </Link>
            </p>
          </>
        )}
      </Section>
    </>
  );
}
