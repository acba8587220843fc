import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { LanguageMenu } from "@/components/ui/language-menu";
import { requestLocale } from "@/lib/checkout/request-locale";
import { formatMoney } from "@/lib/i18n/format";
import { formatDateTime } from "@/lib/i18n/format-details";
import { fmt } from "@/lib/i18n/locales";
import { messagesFor } from "@/lib/i18n/messages";
import { loadManagePage } from "@/lib/subscriptions/load-manage-page";
import { cancelAtPeriodEndForm, payWithAnotherCardForm } from "./actions";

export const dynamic = "force-dynamic";

export async function generateMetadata(): Promise<Metadata> {
  const t = messagesFor(await requestLocale());
  return { title: t.subscription.title, robots: { index: false, follow: false } };
}

const button =
  "inline-flex min-h-11 w-full items-center justify-center rounded-lg px-4 py-2.5 text-base font-semibold focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-slate-900";

/**
 * The customer's own page of one subscription, opened by the token in its emails and manage links (an unknown,
 * forged or expired token is a 404): plan and terms, status, next charge, card; pay an overdue invoice with
 * another card on the hosted checkout; cancel at the end of the period. Plain forms: works without JavaScript.
 */
export default async function ManageSubscriptionPage({
  params,
  searchParams,
}: {
  params: Promise<{ token: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { token } = await params;
  const { done, status } = await searchParams;
  const locale = await requestLocale();
  const t = messagesFor(locale);
  const s = t.subscription;
  const page = await loadManagePage(decodeURIComponent(token));
  if (!page) notFound();
  const { subscription: sub } = page;
  const date = (iso: string) => formatDateTime(iso, locale, t.checkout.months, "UTC");
  const every = s.every[sub.plan.interval as keyof typeof s.every] ?? sub.plan.interval;
  const terms = fmt(s.terms, { amount: formatMoney(sub.plan.amount, sub.plan.currency, locale), every });
  const ended = sub.status === "cancelled" || sub.status === "completed";
  const notice =
    done === "cancelled"
      ? fmt(s.cancelled, { date: date(sub.currentPeriodEnd) })
      : done === "problem"
        ? s.problem
        : status === "success"
          ? s.paid
          : null;
  return (
    <main className="mx-auto flex min-h-dvh w-full max-w-lg flex-col px-4 py-8 sm:py-12">
      <div className="mb-3">
        <LanguageMenu locale={locale} label={t.page.language} />
      </div>
      <div className="rounded-2xl bg-white p-5 shadow-sm ring-1 ring-slate-200 sm:p-8">
        <header className="border-b border-slate-200 pb-5">
          <div className="flex items-start justify-between gap-3">
            <p className="text-sm font-medium text-slate-600">{page.merchantName}</p>
            {page.testMode && (
              <span className="rounded-full bg-amber-100 px-2.5 py-0.5 text-xs font-semibold text-amber-900">
                {t.page.testMode}
              </span>
            )}
          </div>
          <h1 className="mt-2 text-2xl font-semibold tracking-tight break-words text-slate-900">
            {fmt(s.heading, { plan: sub.plan.name, merchant: page.merchantName })}
          </h1>
          <p className="mt-2 text-lg text-slate-800">{terms}</p>
        </header>
        {notice && (
          <p role="status" className="mt-5 rounded-lg bg-slate-100 p-4 text-slate-900">
            {notice}
          </p>
        )}
        <dl className="mt-5 grid grid-cols-1 gap-4 sm:grid-cols-2">
          <div>
            <dt className="text-sm text-slate-600">{s.status}</dt>
            <dd className="font-medium text-slate-900">
              {s.statuses[sub.status as keyof typeof s.statuses]}
            </dd>
          </div>
          <div>
            <dt className="text-sm text-slate-600">{s.nextCharge}</dt>
            <dd className="font-medium text-slate-900">
              {sub.nextChargeAt ? date(sub.nextChargeAt) : s.noNextCharge}
            </dd>
          </div>
          <div className="sm:col-span-2">
            <dt className="text-sm text-slate-600">{s.card}</dt>
            <dd className="font-medium text-slate-900">
              {sub.authorization
                ? fmt(s.cardLine, {
                    brand: sub.authorization.brand.replace(/^./, (c) => c.toUpperCase()),
                    last4: sub.authorization.last4,
                    month: String(sub.authorization.expMonth).padStart(2, "0"),
                    year: String(sub.authorization.expYear),
                  })
                : s.noCard}
            </dd>
          </div>
        </dl>
        {ended ? (
          <p className="mt-6 text-slate-800">{s.ended}</p>
        ) : (
          <div className="mt-6 space-y-4">
            {page.overdue && (
              <form action={payWithAnotherCardForm} className="space-y-3">
                <p role="alert" className="rounded-lg bg-amber-50 p-4 text-amber-950 ring-1 ring-amber-200">
                  {fmt(s.pastDue, {
                    amount: formatMoney(page.overdue.amount, page.overdue.currency, locale),
                  })}
                </p>
                <input type="hidden" name="token" value={token} />
                <input type="hidden" name="lang" value={locale} />
                <button type="submit" className={`${button} bg-slate-900 text-white hover:bg-slate-800`}>
                  {fmt(s.payWithAnotherCard, {
                    amount: formatMoney(page.overdue.amount, page.overdue.currency, locale),
                  })}
                </button>
              </form>
            )}
            {sub.cancelAtPeriodEnd ? (
              <p className="text-slate-800">{fmt(s.willEnd, { date: date(sub.currentPeriodEnd) })}</p>
            ) : (
              <form action={cancelAtPeriodEndForm} className="space-y-2">
                <input type="hidden" name="token" value={token} />
                <input type="hidden" name="lang" value={locale} />
                <button
                  type="submit"
                  className={`${button} bg-white text-slate-900 ring-1 ring-slate-300 hover:bg-slate-50`}
                >
                  {s.cancelAtPeriodEnd}
                </button>
                <p className="text-sm text-slate-600">
                  {fmt(s.cancelNote, { date: date(sub.currentPeriodEnd) })}
                </p>
              </form>
            )}
          </div>
        )}
      </div>
      <p className="mt-6 text-center text-sm text-slate-600">{t.page.securedBy}</p>
    </main>
  );
}
