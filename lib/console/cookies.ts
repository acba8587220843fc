import type { Mode } from "@/lib/db/schema";
import { env } from "@/lib/env";

/**
 * The console's cookies (docs/console.md). The session cookie holds a merchant session token of the same store as
 * /v1/merchants/auth/*: `httpOnly` (no script reads it), `SameSite=Lax` (no cross-site POST carries it),
 * `Secure` on production or whenever the page was served over https, scoped to /dashboard.
 */
export const SESSION_COOKIE = "paygate_session";
export const MODE_COOKIE = "paygate_mode";

const PATH = "/dashboard";

export type CookieOptions = {
  httpOnly: boolean;
  sameSite: "lax";
  secure: boolean;
  path: string;
  expires?: Date;
  maxAge?: number;
};

export function secureCookies(https: boolean): boolean {
  return https || env().PAYMENTS_ENV === "production";
}

export function sessionCookieOptions(expiresAt: string, https: boolean): CookieOptions {
  return {
    httpOnly: true,
    sameSite: "lax",
    secure: secureCookies(https),
    path: PATH,
    expires: new Date(expiresAt),
  };
}

export function clearedCookieOptions(https: boolean): CookieOptions {
  return { httpOnly: true, sameSite: "lax", secure: secureCookies(https), path: PATH, maxAge: 0 };
}

/**
 * The console's device cookie (lib/security/known-device.ts): this browser signed in to the account before, so
 * its owner is let in while guesses from elsewhere have the account locked. `httpOnly`, scoped to /dashboard
 * (the sign-in form posts there), as long as the device stays known.
 */
export function deviceCookieOptions(maxAgeSeconds: number, https: boolean): CookieOptions {
  return { httpOnly: true, sameSite: "lax", secure: secureCookies(https), path: PATH, maxAge: maxAgeSeconds };
}

export function modeCookieOptions(https: boolean): CookieOptions {
  return {
    httpOnly: true,
    sameSite: "lax",
    secure: secureCookies(https),
    path: PATH,
    maxAge: 365 * 24 * 3600,
  };
}

/** The mode the console shows: test unless the merchant switched to live. */
export function consoleMode(value: string | undefined): Mode {
  return value === "live" ? "live" : "test";
}

/** Where to go after signing in: a console path only, never another site (`//evil.example`, `/\evil`). */
export function safeNext(next: string | null | undefined): string {
  if (!next?.startsWith("/dashboard") || next.startsWith("/dashboard/login")) return "/dashboard";
  if (/[\\\s]/.test(next) || next.startsWith("//")) return "/dashboard";
  return next;
}
