// Security headers of the hosted pages (docs/checkout.md): a per-request CSP nonce, no framing (but a checkout
// opened embedded by an origin its merchant allows: lib/checkout/embed-frame.ts), no referrer to other sites
// (the access code is in the address), no caching, no sniffing; and the request id every answer carries. Scoped
// to the page routes (PAGES; `config.matcher` keeps the /v1 API out, so it does not pay for any of it), and
// every other path only has a form from another site refused.
import { type NextRequest, NextResponse } from "next/server";
import { embedFrame } from "@/lib/checkout/embed-frame";
import { hostedPageMissing } from "@/lib/checkout/hosted-page-missing";
import { env } from "@/lib/env";
import { clientAddressOf } from "@/lib/http/client-address";
import { crossSiteFormOrigin, refuseCrossSiteForm } from "@/lib/http/cross-site-form";
import { newRequestId } from "@/lib/security/tokens";

/**
 * A checkout or payment link address that has nothing to show is answered by this unrouted path's 404 (the
 * root not-found page). Outside `config.matcher`, so this proxy never runs for it itself.
 */
const MISSING_PAGE = "/_hosted/missing";

/** The page routes: the hosted pages, the docs and the console. The rest of the matcher's paths only get the check below. */
const PAGES = /^\/(pay|demo|l|docs|dashboard|subscriptions)(\/|$)/;

export async function proxy(request: NextRequest) {
  const bytes = new Uint8Array(18);
  crypto.getRandomValues(bytes);
  const nonce = btoa(String.fromCharCode(...bytes));
  // A form (a server action) sent from another site, to any path of the app: 403 in the product's words and
  // one log line, before Next's action handler answers it 500 with a stack (lib/http/cross-site-form.ts).
  const crossSite = crossSiteFormOrigin(request);
  if (crossSite !== null) {
    return refuseCrossSiteForm({
      url: request.nextUrl,
      headers: request.headers,
      origin: crossSite,
      requestId: newRequestId(),
      nonce,
    });
  }
  if (!PAGES.test(request.nextUrl.pathname)) return NextResponse.next();
  const https = request.nextUrl.protocol === "https:" || request.headers.get("x-forwarded-proto") === "https";
  // A checkout opened embedded (`?embed=1&origin=`) by an origin its merchant lists: framed by exactly the
  // merchant's origins. Anything else, and every other page: framed by none. Nothing else in the policy changes.
  const embedded = await embedFrame({
    pathname: request.nextUrl.pathname,
    search: request.nextUrl.searchParams,
  }).catch(() => null);
  const csp = [
    "default-src 'self'",
    // Next puts the nonce on its own scripts when it finds it in the request's CSP header (below);
    // 'strict-dynamic' lets those load the route's chunks. No 'unsafe-inline', no 'unsafe-eval'.
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'`,
    `style-src 'self' 'nonce-${nonce}'`,
    // Inline style *attributes* cannot run script; React's `style` prop needs them (the link page's brand
    // colour). Style elements still need the nonce.
    "style-src-attr 'unsafe-inline'",
    // Merchant logos: https images on production (lib/merchants/logo-url.ts), http ones too on staging.
    env().PAYMENTS_ENV === "production" ? "img-src 'self' data: https:" : "img-src 'self' data: https: http:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    embedded ? `frame-ancestors ${embedded.ancestors.join(" ")}` : "frame-ancestors 'none'",
    ...(https ? ["upgrade-insecure-requests"] : []),
  ].join("; ");

  // Every answer carries an x-request-id (docs/api.md), the hosted pages too; a client's own is
  // replaced, never echoed.
  const requestId = newRequestId();
  const requestHeaders = new Headers(request.headers);
  requestHeaders.set("x-request-id", requestId);
  requestHeaders.set("x-nonce", nonce);
  // The page learns that it is embedded, and by whom, only from here: a client's own header is dropped.
  requestHeaders.delete("x-embed-origin");
  if (embedded) requestHeaders.set("x-embed-origin", embedded.origin);
  requestHeaders.set("content-security-policy", csp);
  // The console sends a signed-out merchant to sign in and then back here (lib/console/session.ts).
  requestHeaders.set("x-console-path", request.nextUrl.pathname + request.nextUrl.search);
  // The hosted pages' language is read from the address (?lang=) in the root layout (lib/checkout/request-locale.ts).
  requestHeaders.set("x-page-url", request.nextUrl.pathname + request.nextUrl.search);
  // A checkout or payment link that does not exist: the not-found page, rendered on the server (app/not-found.tsx
  // reads x-page-url to say which), with a 404. Only for the page's own document, not the app's RSC requests.
  const document = (request.method === "GET" || request.method === "HEAD") && !request.headers.has("rsc");
  const missing =
    document &&
    (await hostedPageMissing({
      pathname: request.nextUrl.pathname,
      clientAddress: clientAddressOf(request.headers),
    }));
  let response: NextResponse;
  if (missing) {
    // On the origin the request came to, as its Host header names it: `request.nextUrl` spells 127.0.0.1 as
    // localhost, and Next then takes the rewrite for another site's and proxies it over HTTP, losing the
    // headers set here.
    const host = request.headers.get("host") ?? request.nextUrl.host;
    const target = new URL(MISSING_PAGE, `${request.nextUrl.protocol}//${host}`);
    // Next serves the rewrite by sending the request to itself: through server.mjs, which keeps the headers
    // set here (x-page-url, the client's address) only on a request carrying the service's own secret.
    const frontSecret = process.env.PAYGATE_FRONT_SECRET;
    if (frontSecret) requestHeaders.set("x-paygate-front", frontSecret);
    response = NextResponse.rewrite(target, { request: { headers: requestHeaders } });
  } else {
    response = NextResponse.next({ request: { headers: requestHeaders } });
  }
  response.headers.set("content-security-policy", csp);
  // The access code is in the checkout's address: no other site is ever told it (no Referer leaves the
  // origin), while the page's own requests still carry their Origin, which a form's POST needs (a browser
  // sends `Origin: null` under no-referrer, and Next refuses a server action from a null origin).
  response.headers.set("referrer-policy", "same-origin");
  response.headers.set("cache-control", "no-store");
  response.headers.set("x-content-type-options", "nosniff");
  // X-Frame-Options cannot name several origins; a browser that knows frame-ancestors ignores it anyway.
  if (!embedded) response.headers.set("x-frame-options", "DENY");
  response.headers.set("x-request-id", requestId);
  return response;
}

export const config = {
  // Every path but the API's, Next's own files and the unrouted not-found target: a server action can be
  // posted to any of them (the cross-site check above); only PAGES get the headers.
  matcher: ["/((?!v1/|_next/static/|_next/image|_hosted/).*)"],
};
