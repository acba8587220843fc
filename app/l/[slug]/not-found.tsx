import { NoticePage } from "@/components/ui/notice-page";
import { requestLocale } from "@/lib/checkout/request-locale";
import { messagesFor } from "@/lib/i18n/messages";

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
