"use client";

import { AppStyles } from "@/components/app-styles";
import { NoticePage, noticeAction } from "@/components/ui/notice-page";

/**
 * The last resort: the root layout itself failed, so this page brings its own <html> and <body>, and the
 * app's stylesheet when this process has read it (components/app-styles.tsx). With no nonce to give it, a
 * page under the hosted pages' CSP shows it unstyled: plain, readable text and a button.
 */
export default function GlobalError({
  error,
  reset,
}: {
  error: Error & { digest?: string };
  reset: () => void;
}) {
  return (
    <html lang="en">
      <head>
        <title>Something went wrong · Paygate</title>
      </head>
      <body className="min-h-dvh bg-slate-50 text-slate-900 antialiased">
        <AppStyles nonce={undefined} />
        <NoticePage
          code="Error"
          title="Something went wrong on our side"
          actions={
            <button type="button" className={noticeAction} onClick={() => reset()}>
              Try again
            </button>
          }
        >
          <p>This page could not be shown. If you were paying, no payment was made by this error.</p>
          <p>Try again in a moment. If it keeps happening, contact the business you were paying.</p>
          {error.digest && (
            <p className="text-sm text-slate-600">
              Error reference: <span className="font-mono break-all">{error.digest}</span>
            </p>
          )}
        </NoticePage>
      </body>
    </html>
  );
}
