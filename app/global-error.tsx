"use client";

import { AppStyles } from "@/components/app-styles";

/**
 * The last resort: the root layout itself failed, so this page brings its own <html> and <body>, and the
 * app's stylesheet when this process has read it (components/app-styles.tsx). With no nonce to give it, a
 * page under the hosted pages' CSP shows it unstyled: plain, readable text and a button.
 *
 * Every page's first load carries this component's code, so it is plain markup rather than the notice pages'
 * card (components/ui/notice-page.tsx, which app/error.tsx and the not-found pages use): it says the same.
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
        <main className="mx-auto max-w-lg space-y-2 px-4 py-10 text-slate-700">
          <p className="text-sm font-semibold text-teal-800">Paygate · Error</p>
          <h1 className="text-2xl font-semibold text-slate-900">Something went wrong on our side</h1>
          <p>This page could not be shown. If you were paying, no payment was made by this error.</p>
          <p>Try again in a moment. If it keeps happening, contact the business you were paying.</p>
          {error.digest && (
            <p className="text-sm text-slate-600 break-all">Error reference: {error.digest}</p>
          )}
          <button
            type="button"
            className="rounded-lg bg-teal-700 px-4 py-2.5 text-sm font-semibold text-white"
            onClick={() => reset()}
          >
            Try again
          </button>
        </main>
      </body>
    </html>
  );
}
