"use client";

import { NoticePage, noticeAction, noticeSecondary } from "@/components/ui/notice-page";

/**
 * A page that failed while rendering. Says so plainly, offers to try again and a way home, and shows the
 * error's digest (the reference the server logged it under), never its message: that may hold internals.
 */
export default function ErrorPage({
  error,
  reset,
}: {
  error: Error & { digest?: string };
  reset: () => void;
}) {
  return (
    <NoticePage
      code="Error"
      title="Something went wrong on our side"
      actions={
        <>
          <button type="button" className={noticeAction} onClick={() => reset()}>
            Try again
          </button>
          <a href="/" className={noticeSecondary}>
            Go to the home page
          </a>
        </>
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
  );
}
