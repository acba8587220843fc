import type { Metadata } from "next";
import { headers } from "next/headers";
import { notFound } from "next/navigation";
import { HostedErrorNotice } from "@/components/ui/hosted-error-notice";
import { LanguageMenu } from "@/components/ui/language-menu";
import { requestLocale } from "@/lib/checkout/request-locale";
import { isAppError } from "@/lib/core/errors";
import { deploymentMode } from "@/lib/env";
import { formatMoney } from "@/lib/i18n/format";
import { messagesFor } from "@/lib/i18n/messages";
import { en } from "@/lib/i18n/messages/en";
import { displayPaymentLink } from "@/lib/links/display-payment-link";
import { SlugParams } from "@/lib/links/schemas";
import { log } from "@/lib/log";
import { receiptsByEmail } from "@/lib/receipts/transport";
import { LinkForm } from "./_components/link-form";

export const dynamic = "force-dynamic";

export async function generateMetadata(): Promise<Metadata> {
  const t = messagesFor(await requestLocale());
  return { title: t.page.title, robots: { index: false } };
}

async function load(slug: string) {
  if (!SlugParams.safeParse({ slug }).success) return null;
  try {
    return await displayPaymentLink({ slug });
  } catch (err) {
    if (isAppError(err) && err.code === "payment_link_not_found") return null;
    throw err;
  }
}

/** The start page of a payment link: who is asking, for what, and a form that leads to checkout. */
export default async function PaymentLinkPage({
  params,
  searchParams,
}: {
  params: Promise<{ slug: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { slug } = await params;
  const { problem, field, rule } = await searchParams;
  const locale = await requestLocale();
  const t = messagesFor(locale);
  let link: Awaited<ReturnType<typeof load>>;
  try {
    link = await load(slug);
  } catch (err) {
    const requestHeaders = await headers();
    const reference = requestHeaders.get("x-request-id") ?? "";
    log.error("payment link page failed to load", { requestId: reference, error: String(err) });
    return (
      <HostedErrorNotice t={t} retryHref={requestHeaders.get("x-page-url") ?? "/"} reference={reference} />
    );
  }
  if (!link) notFound();
  const testMode = deploymentMode() === "test";
  // The link's reason in English (lib/links/present.ts) matched to its catalogue key.
  const reasonKey = (Object.keys(en.link.unavailable) as Array<keyof typeof en.link.unavailable>).find(
    (key) => en.link.unavailable[key] === link.unavailableReason,
  );
  return (
    <main className="mx-auto flex min-h-dvh w-full max-w-lg flex-col px-4 py-8 sm:py-12">
      <div className="mb-3">
        <LanguageMenu locale={locale} label={t.page.language} />
      </div>
      <div className="rounded-2xl bg-white p-5 shadow-sm ring-1 ring-slate-200 sm:p-8">
        <header className="border-b border-slate-200 pb-5">
          <div className="flex items-start justify-between gap-3">
            <p className="text-sm font-medium text-slate-600">{link.merchantName}</p>
            {testMode && (
              <span className="rounded-full bg-amber-100 px-2.5 py-0.5 text-xs font-semibold text-amber-900">
                {t.page.testMode}
              </span>
            )}
          </div>
          <h1 className="mt-2 text-2xl font-semibold tracking-tight break-words text-slate-900">
            {link.title}
          </h1>
          {link.description && (
            <p className="mt-2 whitespace-pre-line break-words text-slate-700">{link.description}</p>
          )}
          {link.amount && (
            <p className="mt-4 text-3xl font-semibold text-slate-900">
              <span className="sr-only">{t.page.amount}: </span>
              {formatMoney(link.amount, link.currency, locale)}
            </p>
          )}
        </header>
        {link.active ? (
          <LinkForm
            slug={slug}
            currency={link.currency}
            fixedAmount={link.amount}
            minAmount={link.minAmount}
            maxAmount={link.maxAmount}
            fields={link.fields}
            brandColor={link.brandColor}
            pricing={link.pricing}
            receiptsByEmail={receiptsByEmail()}
            locale={locale}
            t={t.link.form}
            reasons={t.link.unavailable}
            channelNames={t.checkout.channels}
            posted={typeof problem === "string" && /^[a-z_]{1,40}$/.test(problem) ? problem : null}
            postedIssue={
              typeof field === "string" &&
              typeof rule === "string" &&
              /^(amount|email|customerName|fields\.[A-Za-z][A-Za-z0-9_]{0,39})$/.test(field) &&
              /^[a-z_]{1,40}$/.test(rule)
                ? { field, rule }
                : null
            }
          />
        ) : (
          <div role="alert" className="mt-6 rounded-lg bg-slate-100 p-4 text-slate-800">
            <p className="font-medium">{t.link.notTakingPayments}</p>
            <p className="mt-1 text-sm">
              {reasonKey ? t.link.unavailable[reasonKey] : link.unavailableReason}
            </p>
          </div>
        )}
      </div>
      <p className="mt-6 text-center text-xs text-slate-600">{t.page.securedBy}</p>
    </main>
  );
}
