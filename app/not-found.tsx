import type { Metadata } from "next";
import { headers } from "next/headers";
import { NoticePage, noticeAction } from "@/components/ui/notice-page";
import { expiredCheckout } from "@/lib/checkout/expired-checkout";
import { requestLocale } from "@/lib/checkout/request-locale";
import { callbackHref } from "@/lib/i18n/format-details";
import { fmt } from "@/lib/i18n/locales";
import { messagesFor } from "@/lib/i18n/messages";

export const metadata: Metadata = { title: "Page not found", robots: { index: false } };

/** The expired checkout an address `/pay/<accessCode>` names, if it is one (a typo is not). */
async function expiredCheckoutOf(path: string) {
  const code = /^\/pay\/([^/?#]+)/.exec(path)?.[1];
  if (!code) return null;
  try {
    return await expiredCheckout(decodeURIComponent(code));
  } catch {
    // The database unreachable, or a malformed address: the page says what it says of any unknown link.
    return null;
  }
}

/**
 * Any address the app has no page for, in the customer's language under the hosted pages' paths. An unknown
 * checkout or payment link is answered here too (proxy.ts sends it here before its page renders, keeping its
 * address in x-page-url), so it is rendered on the server and readable without JavaScript. A checkout whose
 * time is up says so, and leads back to its merchant (the payment's callbackUrl) when it has one.
 */
export default async function NotFound() {
  const [locale, requestHeaders] = await Promise.all([requestLocale(), headers()]);
  const t = messagesFor(locale);
  const path = requestHeaders.get("x-page-url") ?? "";
  const home = (
    <a href="/" className={noticeAction}>
      {t.notices.goHome}
    </a>
  );
  const expired = path.startsWith("/pay/") ? await expiredCheckoutOf(path) : null;
  if (expired) {
    const merchant = expired.merchantName;
    const back = expired.callbackUrl ? callbackHref(expired.callbackUrl, expired.result) : null;
    return (
      <NoticePage
        code={t.page.error404}
        title={t.notices.checkoutExpiredTitle}
        securedBy={t.page.securedBy}
        actions={
          back ? (
            <a href={back} className={noticeAction}>
              {fmt(t.checkout.outcome.returnTo, { merchant })}
            </a>
          ) : undefined
        }
      >
        <p>{fmt(t.notices.checkoutExpiredBody, { merchant })}</p>
        {!back && <p>{fmt(t.notices.checkoutExpiredStartAgain, { merchant })}</p>}
      </NoticePage>
    );
  }
  if (path.startsWith("/pay/") || path.startsWith("/l/")) {
    const checkout = path.startsWith("/pay/");
    return (
      <NoticePage
        code={t.page.error404}
        title={t.notices.checkoutNotFoundTitle}
        securedBy={t.page.securedBy}
        actions={home}
      >
        <p>{checkout ? t.notices.checkoutNotFoundBody1 : t.notices.linkNotFoundBody1}</p>
        <p>{checkout ? t.notices.checkoutNotFoundBody2 : t.notices.linkNotFoundBody2}</p>
      </NoticePage>
    );
  }
  return (
    <NoticePage
      code={t.page.error404}
      title={t.notices.pageNotFoundTitle}
      securedBy={t.page.securedBy}
      actions={home}
    >
      <p>{t.notices.pageNotFoundBody1}</p>
      <p>{t.notices.pageNotFoundBody2}</p>
    </NoticePage>
  );
}
