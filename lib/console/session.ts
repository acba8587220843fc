import { cookies, headers } from "next/headers";
import { redirect } from "next/navigation";
import { cache } from "react";
import { isAppError } from "@/lib/core/errors";
import type { SessionPrincipal } from "@/lib/core/principal";
import { can, type Permission } from "@/lib/core/roles";
import type { Mode } from "@/lib/db/schema";
import { authenticateSession } from "@/lib/merchants/authenticate-session";
import { consoleMode, MODE_COOKIE, SESSION_COOKIE } from "./cookies";

export type ConsoleMerchant = {
  principal: SessionPrincipal;
  merchantId: string;
  mode: Mode;
  /** Whether this member's role allows `permission` (lib/core/roles.ts): pages hide what it does not. */
  can: (permission: Permission) => boolean;
};

function consoleMerchant(principal: SessionPrincipal, mode: Mode): ConsoleMerchant {
  return { principal, merchantId: principal.merchantId, mode, can: (p) => can(principal.role, p) };
}

/** The path and query the merchant asked for (set by proxy.ts), to come back to after signing in. */
export async function requestedPath(): Promise<string> {
  return (await headers()).get("x-console-path") ?? "/dashboard";
}

/**
 * The signed-in merchant of a console page, and the mode it shows. A missing, unknown, signed-out or expired
 * session sends the browser to sign in, and back to this page afterwards. Read once per request (the layout
 * and the page share it).
 */
export const requireMerchant = cache(async (): Promise<ConsoleMerchant> => {
  const jar = await cookies();
  const token = jar.get(SESSION_COOKIE)?.value ?? null;
  try {
    const principal = await authenticateSession({ token });
    return consoleMerchant(principal, consoleMode(jar.get(MODE_COOKIE)?.value));
  } catch (err) {
    if (!isAppError(err) || err.code !== "invalid_session") throw err;
    const next = await requestedPath();
    redirect(`/dashboard/login?next=${encodeURIComponent(next)}${token ? "&expired=1" : ""}`);
  }
});

/** A cookie-authenticated principal for route handlers (401 `invalid_session` when there is none). */
export async function sessionFromRequest(request: Request): Promise<ConsoleMerchant> {
  const cookie = parseCookies(request.headers.get("cookie"));
  const principal = await authenticateSession({ token: cookie[SESSION_COOKIE] ?? null });
  return consoleMerchant(principal, consoleMode(cookie[MODE_COOKIE]));
}

export function parseCookies(header: string | null): Record<string, string> {
  const out: Record<string, string> = {};
  if (!header) return out;
  for (const part of header.split(";")) {
    const i = part.indexOf("=");
    if (i < 0) continue;
    const name = part.slice(0, i).trim();
    if (name && !(name in out)) {
      try {
        out[name] = decodeURIComponent(part.slice(i + 1).trim());
      } catch {
        out[name] = part.slice(i + 1).trim();
      }
    }
  }
  return out;
}
