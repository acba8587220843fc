import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { demoKey, verifyDemoPayment } from "@/lib/checkout/demo-store";
import { requestLocale } from "@/lib/checkout/request-locale";
import type { Channel } from "@/lib/checkout/types";
import { amountDifference, formatMoney, isZeroAmount } from "@/lib/i18n/format";
import { formatDateTime } from "@/lib/i18n/format-details";
import { fmt } from "@/lib/i18n/locales";
import { messagesFor } from "@/lib/i18n/messages";

export const dynamic = "force-dynamic";

export const metadata: Metadata = { title: "Demo store: order", robots: { index: false } };

/** "2025-06-01T09:30:12.000Z" → "1 June 2025, 09:30 UTC". */
function inWords(iso: string): string {
  return `${new Intl.DateTimeFormat("en-GB", { dateStyle: "long", timeStyle: "short", timeZone: "UTC" }).format(new Date(iso))} UTC`;
}

type Query = { status?: string; reference?: string; amount?: string; currency?: string };

/**
 * The demo store's callback page. The query string only says the customer is back; what the store acts on
 * is its own server-side verify (docs/guides/accept-a-payment.md: fulfil only when status is success and the amount is the order's).
 */
export default async function DemoReturnPage({ searchParams }: { searchParams: Promise<Query> }) {
  const key = await demoKey();
  if (!key.ok && key.reason === "live_mode") notFound();
  const query = await searchParams;
  const reference = typeof query.reference === "string" ? query.reference : "";
  const verified = key.ok ? await verifyDemoPayment({ secretKey: key.secretKey, reference }) : null;
  const payment = verified?.ok ? verified.payment : null;
  const fulfil =
    payment?.status === "success" &&
    payment.metadata.orderAmount !== undefined &&
    payment.amount === payment.metadata.orderAmount;

  const locale = await requestLocale();
  const t = messagesFor(locale);
  const r = t.demo.return;
  const money = (amount: string, currency: string) => formatMoney(amount, currency, locale);
  const statusWord = (status: string) =>
    r.statuses[status as "success" | "failed" | "abandoned"] ?? r.statuses.other;
  const channelName = (channel: string) => t.checkout.channels[channel as Channel] ?? channel;
  const paidAt = (iso: string) =>
    locale === "en" ? inWords(iso) : formatDateTime(iso, locale, t.checkout.months, "UTC");
  const paid = payment?.total ?? payment?.amount ?? "0";
  const fee = payment ? amountDifference(paid, payment.amount) : "0";
  const heading = !payment
    ? r.couldNotCheck
    : fulfil
      ? r.confirmed
      : payment.status === "abandoned"
        ? r.cancelled
        : payment.status === "failed"
          ? r.failed
          : payment.status === "success"
            ? r.review
            : r.notFinished;

  return (
    <main className="mx-auto w-full max-w-xl px-4 py-8 sm:py-12">
      <p className="text-sm font-semibold tracking-wide text-teal-800 uppercase">{t.demo.eyebrow}</p>
      <h1 className="mt-1 text-3xl font-semibold tracking-tight text-slate-900">{heading}</h1>
      {!payment ? (
        <p role="alert" className="mt-3 text-slate-700">
          {verified && !verified.ok ? verified.message : r.notSetUp}
        </p>
      ) : (
        <p className="mt-3 text-slate-700">
          {fulfil
            ? fmt(isZeroAmount(fee) ? r.youPaid : r.youPaidWithFee, {
                paid: money(paid, payment.currency),
                amount: money(payment.amount, payment.currency),
                fee: money(fee, payment.currency),
              })
            : payment.status === "success"
              ? r.mismatch
              : r.nothingCharged}
        </p>
      )}

      {payment && (
        <section aria-labelledby="verified" className="mt-8 rounded-xl bg-white p-5 ring-1 ring-slate-200">
          <h2 id="verified" className="text-lg font-semibold text-slate-900">
            {r.verified}
          </h2>
          <dl className="mt-3 divide-y divide-slate-200 text-sm">
            {(
              [
                ["Status", r.status, statusWord(payment.status)],
                ["Reference", r.reference, payment.reference],
                ["Order amount", r.orderAmount, money(payment.amount, payment.currency)],
                ["Fee", r.fee, payment.total ? money(fee, payment.currency) : "—"],
                [
                  "Customer paid",
                  r.customerPaid,
                  payment.total ? money(payment.total, payment.currency) : "—",
                ],
                ["Paid with", r.paidWith, payment.channel ? channelName(payment.channel) : "—"],
                ["Paid at", r.paidAt, payment.paidAt ? paidAt(payment.paidAt) : "—"],
              ] as const
            ).map(([field, label, value]) => (
              <div key={field} className="flex justify-between gap-4 py-2">
                <dt className="text-slate-600">{label}</dt>
                <dd className="text-right font-medium break-all text-slate-900" data-field={field}>
                  {value}
                </dd>
              </div>
            ))}
          </dl>
        </section>
      )}

      <section aria-labelledby="query" className="mt-6 rounded-xl bg-slate-100 p-5 text-sm text-slate-700">
        <h2 id="query" className="font-semibold text-slate-900">
          {r.queryTitle}
        </h2>
        <p className="mt-1">
          status <code className="font-mono">{String(query.status ?? "")}</code>, reference{" "}
          <code className="font-mono break-all">{reference}</code>, amount{" "}
          <code className="font-mono">{String(query.amount ?? "")}</code>{" "}
          <code className="font-mono">{String(query.currency ?? "")}</code>. {r.queryNote}
        </p>
      </section>

      <a
        href={locale === "en" ? "/demo" : `/demo?lang=${locale}`}
        className="mt-8 inline-block rounded-lg bg-teal-700 px-4 py-3 font-semibold text-white hover:bg-teal-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-slate-900"
      >
        {r.back}
      </a>
    </main>
  );
}
