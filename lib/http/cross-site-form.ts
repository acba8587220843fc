import { ownOrigins } from "@/lib/console/origin";
import { type Locale, resolveLocale } from "@/lib/i18n/locales";
import { messagesFor } from "@/lib/i18n/messages";
import { log } from "@/lib/log";
import { appStylesheet } from "./app-stylesheet";

/**
 * Server actions (the pages' forms: checkout, payment link, demo store, sandbox bank, console sign-in and
 * sign-up) sent from another site. Next.js refuses a possible server action whose `Origin` is not the host it
 * came to, which is right, but answers it 500 with an `Invalid Server Actions request` stack on stderr, on any
 * page path (even a static file's). proxy.ts runs this first on every path but the API's: such a request is
 * answered 403 with a page in the product's words and one log line, and never reaches Next's action handler,
 * so nothing is decided.
 *
 * A possible server action is what Next.js takes for one: a POST with a `Next-Action` header (the page's code
 * calling an action) or a `multipart/form-data` body (a form posted before the page's code runs, or without it).
 * It is cross-site when it carries an Origin that is not this service's own (the public base URL's, or the host
 * the request came to: lib/console/origin.ts), `Origin: null` included (a sandboxed frame, a page under
 * `Referrer-Policy: no-referrer`, a redirect across sites). A request with no Origin at all (no browser posts a
 * form without one; a script may) is left to Next, which lets it through as a request that carries no
 * browser's credentials unknowingly. The console's JSON routes (`/dashboard/api/`) refuse cross-site calls in
 * their own envelope and are left to do so.
 */
export function crossSiteFormOrigin(request: {
  method: string;
  headers: Headers;
  nextUrl: { pathname: string };
}): string | null {
  if (request.method.toUpperCase() !== "POST") return null;
  // The console's JSON routes are route handlers, not pages: they refuse a cross-site call themselves, in
  // their envelope (`cross_origin`, lib/console/origin.ts), and run no server action.
  if (request.nextUrl.pathname.startsWith("/dashboard/api/")) return null;
  const action = request.headers.has("next-action");
  const multipart = (request.headers.get("content-type") ?? "")
    .toLowerCase()
    .startsWith("multipart/form-data");
  if (!action && !multipart) return null;
  const origin = request.headers.get("origin");
  if (origin === null) return null;
  if (origin !== "null" && ownOrigins(request.headers).has(origin)) return null;
  return origin;
}

/** The pages that speak the customer's language (docs/checkout.md "Languages"); the console is English. */
const HOSTED = /^\/(pay|l|demo)(\/|$)/;

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] as string,
  );

/**
 * The 403 answer to a cross-site form: a page saying that nothing was done and how to send the form from the
 * page itself, in the page's language on the hosted pages (`?lang=`, else Accept-Language), in the look of the
 * not-found and error pages (components/ui/notice-page.tsx); and its one log line (warn: stderr).
 */
export async function refuseCrossSiteForm(input: {
  url: URL;
  headers: Headers;
  origin: string;
  requestId: string;
  nonce: string;
}): Promise<Response> {
  const { url, headers } = input;
  const locale: Locale = HOSTED.test(url.pathname)
    ? resolveLocale({ query: url.searchParams.get("lang"), acceptLanguage: headers.get("accept-language") })
    : "en";
  const m = messagesFor(locale).page;
  log.warn("cross-site form refused", {
    requestId: input.requestId,
    method: "POST",
    // An emailed link's token (an invitation, a password reset) is in its page's path: never logged.
    path: url.pathname.replace(/\/(inv|pwr|eml)_[0-9A-Za-z]+/g, "/$1_[redacted]").slice(0, 200),
    origin: input.origin.slice(0, 100),
    action: headers.has("next-action") ? "next-action" : "form",
  });
  const css = await appStylesheet();
  // Back to the page the form belongs to, as a plain GET of the same address.
  const back = `${url.pathname}${url.search}`;
  const html = `<!DOCTYPE html>
<html lang="${locale}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex"><title>${escapeHtml(m.crossSite.title)} · Paygate</title>
<style nonce="${input.nonce}">${css}</style></head>
<body class="min-h-dvh bg-slate-50 text-slate-900 antialiased">
<main class="mx-auto flex min-h-dvh w-full max-w-lg flex-col justify-center px-4 py-10 sm:py-12">
<div class="rounded-2xl bg-white shadow-sm ring-1 ring-slate-200">
<div aria-hidden="true" class="h-1.5 rounded-t-2xl bg-teal-700"></div>
<div class="p-6 sm:p-8">
<p class="text-sm font-semibold text-teal-800">Paygate<span class="font-normal text-slate-600"> · 403</span></p>
<h1 class="mt-2 text-2xl font-semibold tracking-tight break-words text-slate-900">${escapeHtml(m.crossSite.heading)}</h1>
<div class="mt-3 space-y-2 text-slate-700"><p>${escapeHtml(m.crossSite.body)}</p></div>
<div class="mt-6 flex flex-wrap gap-3"><a class="font-semibold text-teal-800 underline" href="${escapeHtml(back)}">${escapeHtml(m.crossSite.back)}</a></div>
</div></div>
<p class="mt-6 text-center text-xs text-slate-600">${escapeHtml(m.securedBy)}</p>
</main></body></html>`;
  return new Response(html, {
    status: 403,
    headers: {
      "content-type": "text/html; charset=utf-8",
      "cache-control": "no-store",
      "content-security-policy": `default-src 'none'; style-src 'nonce-${input.nonce}'; img-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`,
      "referrer-policy": "same-origin",
      "x-content-type-options": "nosniff",
      "x-frame-options": "DENY",
      "x-request-id": input.requestId,
    },
  });
}
