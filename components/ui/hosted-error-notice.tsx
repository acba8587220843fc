import type { Messages } from "@/lib/i18n/messages/en";
import { NoticePage, noticeAction } from "./notice-page";

/**
 * A hosted page that could not load what it shows (the database out of reach, a fault): said on the page the
 * server renders, in the customer's language, with a way on, instead of Next's error shell that only
 * JavaScript fills in. `reference` is the request id the fault was logged under.
 */
export function HostedErrorNotice({
  t,
  retryHref,
  reference,
}: {
  t: Messages;
  retryHref: string;
  reference: string;
}) {
  return (
    <NoticePage
      code="Error"
      title={t.notices.errorTitle}
      securedBy={t.page.securedBy}
      actions={
        <a href={retryHref} className={noticeAction}>
          {t.notices.tryAgain}
        </a>
      }
    >
      <p>{t.notices.errorBody1}</p>
      <p>{t.notices.errorBody2}</p>
      <p className="text-sm text-slate-600">
        Ref: <span className="font-mono break-all">{reference}</span>
      </p>
    </NoticePage>
  );
}
