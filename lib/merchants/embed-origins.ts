import { z } from "zod";
import { env } from "@/lib/env";

/**
 * The web origins a merchant lets frame its checkout (the embedded checkout, docs/guides/embed-the-checkout.md):
 * `https://shop.example`, one per site the merchant's pages are served from. The hosted page answers
 * `frame-ancestors` with exactly these origins when it is opened embedded (proxy.ts), and talks to the page
 * that framed it only at the origin the page named, if it is one of these (lib/checkout/embed-frame.ts).
 *
 * An origin is a scheme, a host and an optional port, nothing else: no path, query, fragment, credentials or
 * wildcard. Production takes https origins only; staging also takes http://localhost and http://127.0.0.1 (any
 * port), for a shop under development on the developer's machine.
 */
export const MAX_EMBED_ORIGINS = 10;

const HOST =
  /^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$|^\[[0-9a-f:.]+\]$/;
const LOCAL_HOSTS = new Set(["localhost", "127.0.0.1"]);

export type OriginCheck = { ok: true; origin: string } | { ok: false; reason: string };

/** One origin checked and written as browsers write it (lower-case host, no default port, no trailing slash). */
export function checkEmbedOrigin(
  input: string,
  production = env().PAYMENTS_ENV === "production",
): OriginCheck {
  const refuse = (reason: string): OriginCheck => ({ ok: false, reason });
  const shape = production
    ? "must be an https origin like https://shop.example"
    : "must be an https origin like https://shop.example, or http://localhost or http://127.0.0.1 with any port";
  if (input.length > 200) return refuse("must be at most 200 characters");
  let url: URL;
  try {
    url = new URL(input.trim());
  } catch {
    return refuse(shape);
  }
  if (url.username || url.password) return refuse("must not carry a user name or password");
  if ((url.pathname !== "/" && url.pathname !== "") || url.search || url.hash || /[?#]$/.test(input.trim()))
    return refuse("must be an origin (scheme://host[:port]) without a path, query or fragment");
  if (!HOST.test(url.hostname)) return refuse("must name one host, without wildcards");
  if (url.protocol === "https:") return { ok: true, origin: url.origin };
  if (url.protocol === "http:" && !production && LOCAL_HOSTS.has(url.hostname))
    return { ok: true, origin: url.origin };
  if (url.protocol === "http:" && !production)
    return refuse("must be https (http is accepted only for localhost and 127.0.0.1 on staging)");
  if (url.protocol === "http:") return refuse("must be https on production");
  return refuse(shape);
}

/** `embedOrigins` of PUT /v1/merchants/settings: the full list (an empty one frames the checkout nowhere). */
export const EmbedOriginsSchema = z
  .array(z.string({ message: "must be a string" }))
  .max(MAX_EMBED_ORIGINS, `must list at most ${MAX_EMBED_ORIGINS} origins`)
  .transform((list, ctx) => {
    const origins: string[] = [];
    for (const [i, value] of list.entries()) {
      const checked = checkEmbedOrigin(value);
      if (!checked.ok) {
        ctx.addIssue({ code: "custom", message: checked.reason, path: [i] });
        return z.NEVER;
      }
      if (origins.includes(checked.origin)) {
        ctx.addIssue({ code: "custom", message: "must not repeat an origin", path: [i] });
        return z.NEVER;
      }
      origins.push(checked.origin);
    }
    return origins;
  });

/** The stored list as JSON (null when empty). */
export function serializeEmbedOrigins(origins: readonly string[]): string | null {
  return origins.length > 0 ? JSON.stringify(origins) : null;
}

/**
 * The stored list, each origin checked again by this deployment's rules (a staging database's localhost
 * origins never frame a production checkout); anything unreadable is left out.
 */
export function parseEmbedOrigins(stored: string | null): string[] {
  if (!stored) return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(stored);
  } catch {
    return [];
  }
  if (!Array.isArray(parsed)) return [];
  const origins: string[] = [];
  for (const value of parsed) {
    if (typeof value !== "string") continue;
    const checked = checkEmbedOrigin(value);
    if (checked.ok && !origins.includes(checked.origin)) origins.push(checked.origin);
  }
  return origins;
}
