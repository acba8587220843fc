import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { demoKey, verifyDemoPayment } from "@/lib/checkout/demo-store";
import { amountDifference, CHANNEL_NAMES, formatMoney, isZeroAmount } from "@/lib/checkout/format";

export const dynamic = "force-dynamic";

export const metadata: Metadata = { title: "Demo store: order", robots: { index: false } };

const STATUS_WORDS: Record<string, string> = {
  success: "Paid",
  failed: "Failed",
  abandoned: "Cancelled",
};

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

  const paid = payment?.total ?? payment?.amount ?? "0";
  const fee = payment ? amountDifference(paid, payment.amount) : "0";
  const heading = !payment
    ? "We could not check this payment"
    : fulfil
      ? "Thank you! Your order is confirmed"
      : payment.status === "abandoned"
        ? "Payment cancelled"
        : payment.status === "failed"
          ? "Payment failed"
          : payment.status === "success"
            ? "Payment needs review"
            : "Payment not finished";

  return (
    <main className="mx-auto w-full max-w-xl px-4 py-8 sm:py-12">
      <p className="text-sm font-semibold tracking-wide text-teal-800 uppercase">Demo store · test mode</p>
      <h1 className="mt-1 text-3xl font-semibold tracking-tight text-slate-900">{heading}</h1>
      {!payment ? (
        <p role="alert" className="mt-3 text-slate-700">
          {verified && !verified.ok ? verified.message : "The demo merchant is not set up on this server."}
        </p>
      ) : (
        <p className="mt-3 text-slate-700">
          {fulfil
            ? `You paid ${formatMoney(paid, payment.currency)}${isZeroAmount(fee) ? "" : ` (the order's ${formatMoney(payment.amount, payment.currency)} and a ${formatMoney(fee, payment.currency)} fee)`}. We are packing your order.`
            : payment.status === "success"
              ? "The verified amount does not match the order; the order is on hold."
              : "Nothing was charged. You can try again."}
        </p>
      )}

      {payment && (
        <section aria-labelledby="verified" className="mt-8 rounded-xl bg-white p-5 ring-1 ring-slate-200">
          <h2 id="verified" className="text-lg font-semibold text-slate-900">
            Verified on the server
          </h2>
          <dl className="mt-3 divide-y divide-slate-200 text-sm">
            {(
              [
                ["Status", STATUS_WORDS[payment.status] ?? "Not finished"],
                ["Reference", payment.reference],
                ["Order amount", formatMoney(payment.amount, payment.currency)],
                ["Fee", payment.total ? formatMoney(fee, payment.currency) : "—"],
                ["Customer paid", payment.total ? formatMoney(payment.total, payment.currency) : "—"],
                ["Paid with", payment.channel ? (CHANNEL_NAMES[payment.channel] ?? payment.channel) : "—"],
                ["Paid at", payment.paidAt ? inWords(payment.paidAt) : "—"],
              ] as const
            ).map(([label, value]) => (
              <div key={label} className="flex justify-between gap-4 py-2">
                <dt className="text-slate-600">{label}</dt>
                <dd className="text-right font-medium break-all text-slate-900" data-field={label}>
                  {value}
                </dd>
              </div>
            ))}
          </dl>
        </section>
      )}

      <section aria-labelledby="query" className="mt-6 rounded-xl bg-slate-100 p-5 text-sm text-slate-700">
        <h2 id="query" className="font-semibold text-slate-900">
          What the return address said
        </h2>
        <p className="mt-1">
          status <code className="font-mono">{String(query.status ?? "")}</code>, reference{" "}
          <code className="font-mono break-all">{reference}</code>, amount{" "}
          <code className="font-mono">{String(query.amount ?? "")}</code>{" "}
          <code className="font-mono">{String(query.currency ?? "")}</code>. The store never fulfils on these:
          anyone can type them.
        </p>
      </section>

      <a
        href="/demo"
        className="mt-8 inline-block rounded-lg bg-teal-700 px-4 py-3 font-semibold text-white hover:bg-teal-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-slate-900"
      >
        Back to the store
      </a>
    </main>
  );
}
