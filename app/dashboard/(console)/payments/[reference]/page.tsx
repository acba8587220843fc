import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { requireMerchant } from "@/lib/console/session";
import { isAppError } from "@/lib/core/errors";
import { formatMoney } from "@/lib/i18n/format";
import { paymentTimeline } from "@/lib/payments/payment-timeline";
import { verifyPayment } from "@/lib/payments/verify-payment";
import { refundSummary } from "@/lib/refunds/refund-summary";
import { PageHeader, RefundsTable, Section, StatusBadge, when } from "../../../_components/bits";
import { EventLog } from "../../../_components/event-log";
import { FollowPayment } from "../../../_components/follow-payment";
import { RefundForm } from "../../../_components/refund-form";
import { linkClass } from "../../../_components/styles";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Payment" };

const REFERENCE = /^PAY_TXN_[A-Za-z0-9]{1,64}$/;

function Row({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div className="grid grid-cols-[9rem_1fr] gap-2 py-1.5 sm:grid-cols-[12rem_1fr]">
      <dt className="text-sm font-medium text-slate-600">{label}</dt>
      <dd className="min-w-0 break-words text-sm text-slate-900">{children}</dd>
    </div>
  );
}

export default async function PaymentPage({ params }: { params: Promise<{ reference: string }> }) {
  const member = await requireMerchant();
  const { merchantId, mode } = member;
  const { reference } = await params;
  if (!REFERENCE.test(reference)) notFound();
  let payment: Awaited<ReturnType<typeof verifyPayment>>;
  let timeline: Awaited<ReturnType<typeof paymentTimeline>>;
  let refunds: NonNullable<Awaited<ReturnType<typeof refundSummary>>>;
  try {
    let summary: Awaited<ReturnType<typeof refundSummary>>;
    [payment, timeline, summary] = await Promise.all([
      verifyPayment({ merchantId, mode, reference }),
      paymentTimeline({ merchantId, mode, reference }),
      refundSummary({ merchantId, mode, reference }),
    ]);
    if (!summary) notFound();
    refunds = summary;
  } catch (err) {
    if (isAppError(err) && err.code === "transaction_not_found") notFound();
    throw err;
  }
  const money = (v: string | null) => (v === null ? "—" : formatMoney(v, payment.currency));
  const metadata = Object.entries(payment.metadata);
  return (
    <>
      <p className="text-sm">
        <Link href="/dashboard/payments" className={linkClass}>
          Back to payments
        </Link>
      </p>
      <PageHeader title="Payment" mode={mode} />
      <FollowPayment reference={payment.reference} status={payment.status} />
      <Section title={formatMoney(payment.amount, payment.currency)} id="summary">
        <dl className="divide-y divide-slate-100">
          <Row label="Status">
            <StatusBadge status={payment.status} />
          </Row>
          <Row label="Reference">
            <code className="font-mono">{payment.reference}</code>
          </Row>
          <Row label="Amount">{money(payment.amount)}</Row>
          <Row label="Fees">{money(payment.fees)}</Row>
          <Row label="Customer paid">{money(payment.total)}</Row>
          <Row label="Settled to you">{money(payment.amountSettled)}</Row>
          <Row label="Fees paid by">{payment.merchantBearsCost ? "You" : "The customer"}</Row>
          <Row label="Channel">{payment.channel ? payment.channel.replaceAll("_", " ") : "—"}</Row>
          <Row label="Customer email">
            {payment.customer.code ? (
              <Link href={`/dashboard/customers/${payment.customer.code}`} className={linkClass}>
                {payment.customer.email}
              </Link>
            ) : (
              (payment.customer.email ?? "—")
            )}
          </Row>
          <Row label="Customer name">{payment.customer.name ?? "—"}</Row>
          {payment.authorization && (
            <Row label="Saved card">
              {payment.authorization.brand} •••• {payment.authorization.last4}{" "}
              <code className="font-mono text-slate-600">{payment.authorization.authorizationCode}</code>
            </Row>
          )}
          <Row label="Created">{when(payment.createdAt)}</Row>
          <Row label="Paid">{when(payment.paidAt)}</Row>
        </dl>
      </Section>
      <Section title="Metadata" id="metadata">
        {metadata.length === 0 ? (
          <p className="text-sm text-slate-700">No metadata.</p>
        ) : (
          <dl className="divide-y divide-slate-100">
            {metadata.map(([k, v]) => (
              <Row key={k} label={k}>
                {typeof v === "string" ? v : JSON.stringify(v)}
              </Row>
            ))}
          </dl>
        )}
      </Section>
      <Section title="Timeline" id="timeline">
        <ol className="space-y-3 border-l-2 border-slate-200 pl-4">
          {timeline.map((t) => (
            <li key={`${t.at}-${t.what}`} className="text-sm">
              <p className="font-medium text-slate-900">{t.what}</p>
              {t.detail && <p className="text-slate-700">{t.detail.replaceAll("_", " ")}</p>}
              <p className="text-slate-600">{when(t.at)}</p>
            </li>
          ))}
        </ol>
      </Section>
      <Section title="Refunds" id="refunds">
        <dl>
          <Row label="Refunded">{money(payment.amountRefunded)}</Row>
          <Row label="Refundable">{money(refunds.refundable)}</Row>
        </dl>
        {refunds.refunds.length > 0 && (
          <div className="mt-3">
            <RefundsTable
              rows={refunds.refunds}
              caption="Refunds of this payment"
              mode={mode}
              showReference={false}
            />
          </div>
        )}
        <div className="mt-4">
          {/[1-9]/.test(
            refunds.refundable,
          ) /* a decimal string: any digit but 0 means more than nothing */ ? (
            !member.can("refunds.write") ? (
              <p className="text-sm text-slate-700">Your role does not issue refunds.</p>
            ) : (
              <RefundForm
                reference={payment.reference}
                refundable={refunds.refundable}
                currency={payment.currency}
              />
            )
          ) : (
            <p className="text-sm text-slate-700">
              {payment.status === "success"
                ? "Everything paid has been refunded."
                : "Only a paid payment can be refunded."}
            </p>
          )}
        </div>
      </Section>
      {member.can("developers.read") && (
        <Section title="Webhook events" id="events">
          <EventLog mode={mode} reference={payment.reference} canRedeliver={member.can("webhooks.write")} />
        </Section>
      )}
    </>
  );
}
