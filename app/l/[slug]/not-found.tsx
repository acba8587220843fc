import { NoticePage } from "@/components/ui/notice-page";
import { messagesFor } from "@/lib/i18n/messages";
import { requestLocale } from "@/lib/i18n/request-locale";

/** An unknown payment link (the page answers 404). */
export default async function LinkNotFound() {
  const t = messagesFor(await requestLocale());
  return (
    <NoticePage code={t.page.error404} title={t.notices.checkoutNotFoundTitle} securedBy={t.page.securedBy}>
      <p>{t.notices.linkNotFoundBody1}</p>
      <p>{t.notices.linkNotFoundBody2}</p>
    </NoticePage>
  );
}
