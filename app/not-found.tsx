import type { Metadata } from "next";
import { headers } from "next/headers";
import { NoticePage, noticeAction } from "@/components/ui/notice-page";
import { requestLocale } from "@/lib/checkout/request-locale";
import { messagesFor } from "@/lib/i18n/messages";

export const metadata: Metadata = { title: "Page not found", robots: { index: false } };

/**
 * Any address the app has no page for, in the customer's language under the hosted pages' paths. An unknown
 * checkout or payment link is answered here too (proxy.ts sends it here before its page renders, keeping its
 * address in x-page-url), so it is rendered on the server and readable without JavaScript.
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
