import type { ReactNode } from "react";

/**
 * A whole page that says what happened and what to do, in the product's look (the checkout's card, stripe and
 * footer): the not-found pages and the error pages. `actions` are the ways on, when there are any. Usable from
 * server and client components alike (no hooks).
 */
export function NoticePage({
  title,
  children,
  actions,
  code,
  securedBy = "Secured by Paygate",
}: {
  title: string;
  children: ReactNode;
  actions?: ReactNode;
  /** A short tag above the title ("Error 404"). */
  code?: string;
  /** The footer, in the page's language. */
  securedBy?: string;
}) {
  return (
    <main className="mx-auto flex min-h-dvh w-full max-w-lg flex-col justify-center px-4 py-10 sm:py-12">
      <div className="rounded-2xl bg-white shadow-sm ring-1 ring-slate-200">
        <div aria-hidden="true" className="h-1.5 rounded-t-2xl bg-teal-700" />
        <div className="p-6 sm:p-8">
          <p className="text-sm font-semibold text-teal-800">
            Paygate{code ? <span className="font-normal text-slate-600"> · {code}</span> : null}
          </p>
          <h1 className="mt-2 text-2xl font-semibold tracking-tight break-words text-slate-900">{title}</h1>
          <div className="mt-3 space-y-2 text-slate-700">{children}</div>
          {actions && <div className="mt-6 flex flex-wrap gap-3">{actions}</div>}
        </div>
      </div>
      <p className="mt-6 text-center text-xs text-slate-600">{securedBy}</p>
    </main>
  );
}

/** A link styled as the primary button of these pages (the product's teal; no merchant brand here). */
export const noticeAction =
  "inline-flex items-center justify-center rounded-lg bg-teal-700 px-4 py-2.5 text-sm font-semibold text-white shadow-sm hover:bg-teal-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-slate-900";
export const noticeSecondary =
  "inline-flex items-center justify-center rounded-lg bg-white px-4 py-2.5 text-sm font-semibold text-slate-800 ring-1 ring-slate-300 hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-slate-900";
