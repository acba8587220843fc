import type { Messages } from "@/lib/i18n/messages/en";

/**
 * The pay page when this network has run out of access-code attempts (lib/security/rate-limit.ts): the code
 * was not even looked up, so nothing is said about the link itself. Answered with HTTP 200, not 429: an App
 * Router page can only choose 404, 403 or 401 (notFound, forbidden, unauthorized), and a 404 would claim
 * the link is invalid. The API's own answer to the same limit is 429 `rate_limited` (docs/decisions/006-rate-limits.md).
 */
export function RateLimited({ accessCode, t }: { accessCode: string; t: Messages["notices"] }) {
  return (
    <main className="mx-auto flex min-h-dvh max-w-lg flex-col justify-center px-4 py-12">
      <h1 className="text-2xl font-semibold text-slate-900">{t.rateLimitedTitle}</h1>
      <p className="mt-2 text-slate-700">{t.rateLimitedBody}</p>
      <p className="mt-4">
        <a
          href={`/pay/${encodeURIComponent(accessCode)}`}
          className="font-medium text-teal-800 underline underline-offset-2 hover:text-teal-900"
        >
          {t.tryAgain}
        </a>
      </p>
    </main>
  );
}
