import { AppError } from "@/lib/core/errors";
import { env } from "@/lib/env";

/**
 * Mutations of the console are same-origin only (docs/console.md): the browser's `Origin` must be this service's
 * own, either the public base URL or the host the request came to. A missing Origin (no browser omits it on a
 * POST made by fetch) is refused too.
 */
export function assertSameOrigin(headers: Headers): void {
  const origin = headers.get("origin");
  if (origin && origin !== "null" && ownOrigins(headers).has(origin)) return;
  throw new AppError(
    "cross_origin",
    "This request must come from the console's own pages (the Origin header does not match).",
  );
}

/** This service's own origins: the public base URL's, and that of the host the request came to. */
export function ownOrigins(headers: Headers): Set<string> {
  const allowed = new Set<string>([new URL(env().PUBLIC_BASE_URL).origin]);
  const host = headers.get("host");
  if (host) {
    const https = headers.get("x-forwarded-proto") === "https";
    allowed.add(`${https ? "https" : "http"}://${host}`);
  }
  return allowed;
}

export function isHttps(request: Request): boolean {
  return new URL(request.url).protocol === "https:" || request.headers.get("x-forwarded-proto") === "https";
}
