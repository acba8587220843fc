import { NoticePage } from "@/components/ui/notice-page";
import { requestLocale } from "@/lib/checkout/request-locale";
import { messagesFor } from "@/lib/i18n/messages";

/** An unknown, expired or mistyped access code (the page answers 404). */
export default async function CheckoutNotFound() {
  const t = messagesFor(await requestLocale());
  return (
    <NoticePage code={t.page.error404} title={t.notices.checkoutNotFoundTitle} securedBy={t.page.securedBy}>
      <p>{t.notices.checkoutNotFoundBody1}</p>
      <p>{t.notices.checkoutNotFoundBody2}</p>
    </NoticePage>
  );
}
