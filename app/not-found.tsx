import type { Metadata } from "next";
import { NoticePage, noticeAction } from "@/components/ui/notice-page";
import { messagesFor } from "@/lib/i18n/messages";
import { requestLocale } from "@/lib/i18n/request-locale";

export const metadata: Metadata = { title: "Page not found", robots: { index: false } };

/** Any address the app has no page for (in the customer's language under the hosted pages' paths). */
export default async function NotFound() {
  const t = messagesFor(await requestLocale());
  return (
    <NoticePage
      code={t.page.error404}
      title={t.notices.pageNotFoundTitle}
      securedBy={t.page.securedBy}
      actions={
        <a href="/" className={noticeAction}>
          {t.notices.goHome}
        </a>
      }
    >
      <p>{t.notices.pageNotFoundBody1}</p>
      <p>{t.notices.pageNotFoundBody2}</p>
    </NoticePage>
  );
}
