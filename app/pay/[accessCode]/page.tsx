import type { Metadata } from "next";
import { headers } from "next/headers";
import { notFound } from "next/navigation";
import type { CSSProperties } from "react";
import { HostedErrorNotice } from "@/components/ui/hosted-error-notice";
import { LanguageMenu } from "@/components/ui/language-menu";
import { initialChannel } from "@/lib/checkout/initial-channel";
import { loadCheckout } from "@/lib/checkout/load-checkout";
import { requestLocale } from "@/lib/checkout/request-locale";
import type { CheckoutView } from "@/lib/checkout/types";
import { clientAddressOf } from "@/lib/http/client-address";
import { formatMoney } from "@/lib/i18n/format";
import { fmt, isLocale, type Locale } from "@/lib/i18n/locales";
import { messagesFor } from "@/lib/i18n/messages";
import { log } from "@/lib/log";
import { type Channel, isChannel } from "@/lib/payments/channel-list";
import { Checkout } from "./_components/checkout";
import { RateLimited } from "./_components/rate-limited";
import { chooseCheckoutLanguage } from "./actions";

export const dynamic = "force-dynamic";

export async function generateMetadata(): Promise<Metadata> {
  const t = messagesFor(await requestLocale());
  return { title: t.page.title, robots: { index: false, follow: false } };
}

const DEFAULT_BRAND = "#0f766e";

/** A problem code of lib/checkout/submit-checkout-form.ts (the page words it; anything else is ignored). */
const PROBLEM = /^[a-z_]{1,40}(:[A-Za-z0-9_]{1,40})?$/;

/** Text on the brand colour: white where it reads (WCAG AA, 4.5:1), near-black otherwise. */
function foregroundOn(hex: string): string {
  const channel = (i: number) => {
    const c = Number.parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  const luminance = 0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5);
  return 1.05 / (luminance + 0.05) >= 4.5 ? "#ffffff" : "#0f172a";
}

/**
 * The hosted checkout: the session is read server-side by access code; an unknown or expired one is a 404,
 * and a network that has used up its access-code attempts is told so (RateLimited), not that the link is bad.
 */
export default async function PayPage({
  params,
  searchParams,
}: {
  params: Promise<{ accessCode: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { accessCode } = await params;
  const query = await searchParams;
  const one = (name: string) => (typeof query[name] === "string" ? (query[name] as string) : null);
  const requestHeaders = await headers();
  const locale = await requestLocale();
  const t = messagesFor(locale);
  let loaded: Awaited<ReturnType<typeof loadCheckout>>;
  try {
    loaded = await loadCheckout({ accessCode, clientAddress: clientAddressOf(requestHeaders) });
  } catch (err) {
    const reference = requestHeaders.get("x-request-id") ?? "";
    log.error("checkout page failed to load", { requestId: reference, error: String(err) });
    return (
      <HostedErrorNotice t={t} retryHref={requestHeaders.get("x-page-url") ?? "/"} reference={reference} />
    );
  }
  if (loaded.kind === "not_found") notFound();
  if (loaded.kind === "rate_limited") return <RateLimited accessCode={accessCode} t={t.notices} />;
  const { view } = loaded;
  const brand = view.merchant.brandColor ?? DEFAULT_BRAND;
  // The address's own state: the tab, and what a form posted without the page's code led to (actions.ts).
  const asked = one("channel");
  const channel = isChannel(asked ?? "") ? (asked as Channel) : null;
  const first = initialChannel(view, asked);
  const problem = one("problem");
  const lang = one("lang");
  // Set by proxy.ts only when this address asks to be embedded by an origin the merchant lists.
  const embedOrigin = requestHeaders.get("x-embed-origin");
  const keep: Record<string, string> = {
    ...(isLocale(lang) ? { lang } : {}),
    ...(embedOrigin ? { embed: "1", origin: embedOrigin } : {}),
  };
  const { merchant } = view;

  return (
    <main
      className="mx-auto flex min-h-dvh w-full max-w-xl flex-col px-3 py-4 sm:px-4 sm:py-10"
      // Embedded, this page's content sits inside the merchant's, whose own main landmark it must not repeat.
      aria-label={embedOrigin ? t.page.title : undefined}
      // The merchant's colour (validated as #rrggbb in loadCheckout) as custom properties on a style attribute,
      // which the CSP allows (style-src-attr) on every kind of navigation. A nonce'd <style> element is not:
      // reached by a client-side navigation (the demo store's redirect), its nonce is the new request's, not
      // the one in the document's CSP, and the browser blocks it.
      style={{ "--brand": brand, "--brand-fg": foregroundOn(brand) } as CSSProperties}
    >
      {/* No overflow clipping here: the bank picker's list must be free to extend past the card. */}
      <div className="rounded-2xl bg-white shadow-sm ring-1 ring-slate-200 print:shadow-none">
        <div
          aria-hidden="true"
          data-testid="brand-stripe"
          className="h-1.5 rounded-t-2xl bg-[var(--brand)]"
        />
        <Checkout
          view={view}
          locale={locale}
          messages={t.checkout}
          firstChannel={first}
          keep={keep}
          embedOrigin={embedOrigin}
          posted={problem && PROBLEM.test(problem) ? { channel, problem } : null}
          confirmCancel={one("cancel") === "confirm"}
          terms={planTerms(view, locale)}
          intro={
            <>
              <div className="flex items-start justify-between gap-3">
                <div className="flex min-w-0 items-center gap-3">
                  {merchant.logoUrl && (
                    // biome-ignore lint/performance/noImgElement: a merchant's remote logo, not an optimisable asset
                    <img
                      src={merchant.logoUrl}
                      alt=""
                      width={40}
                      height={40}
                      referrerPolicy="no-referrer"
                      className="size-10 shrink-0 rounded-lg object-contain ring-1 ring-slate-200"
                    />
                  )}
                  <h1 className="min-w-0 text-base font-semibold break-words text-slate-900">
                    {merchant.name}
                  </h1>
                </div>
                {view.testMode && (
                  <span className="shrink-0 rounded-full bg-amber-100 px-2.5 py-0.5 text-xs font-semibold text-amber-900 ring-1 ring-amber-300">
                    {t.page.testMode}
                  </span>
                )}
              </div>
              {view.description && (
                <p className="mt-2 text-sm break-words whitespace-pre-line text-slate-700">
                  {view.description}
                </p>
              )}
            </>
          }
          payer={
            view.email && (
              <p className="mt-1 text-sm break-all text-slate-700">
                <span className="sr-only">{t.page.payingAs} </span>
                {view.email}
              </p>
            )
          }
        />
      </div>
      {/* After the card: the first Tab stop stays the payment methods. */}
      <div className="mt-4">
        <LanguageMenu
          locale={locale}
          label={t.page.language}
          action={chooseCheckoutLanguage}
          keep={{ accessCode }}
          up
        />
      </div>
      <p className="mt-4 text-center text-xs text-slate-600">{t.page.securedBy}</p>
    </main>
  );
}

/** "NGN 5,000.00 every month, first charge today": a subscription's terms in the page's language. */
function planTerms(view: CheckoutView, locale: Locale): string | null {
  if (!view.plan) return null;
  const s = messagesFor(locale).subscription;
  const every = s.every[view.plan.interval as keyof typeof s.every] ?? view.plan.interval;
  const terms = fmt(s.terms, { amount: formatMoney(view.plan.amount, view.plan.currency, locale), every });
  return `${terms}, ${s.firstChargeToday}`;
}
