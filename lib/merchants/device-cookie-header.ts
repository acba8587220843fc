import { z } from "zod";
import { env } from "@/lib/env";
import { DEVICE_COOKIE, type DeviceCookie } from "@/lib/security/known-device";

/**
 * The device cookie as the API answers it (docs/decisions/024-device-cookies.md): `Set-Cookie` on
 * `POST /v1/merchants/auth/signup` and `…/login`, scoped to `/v1/merchants/auth` (the only requests that read
 * it), `HttpOnly`, `SameSite=Strict`, `Secure` on production or over https. A client that keeps cookies sends
 * it back on its next sign-in (`Cookie: paygate_device=…`) and is let in while the account is locked by
 * guesses from elsewhere. The console sets its own, scoped to `/dashboard` (lib/console/cookies.ts).
 */
export const API_DEVICE_COOKIE_PATH = "/v1/merchants/auth";

export function apiDeviceCookie(device: DeviceCookie, headers: Headers): string {
  const secure = env().PAYMENTS_ENV === "production" || headers.get("x-forwarded-proto") === "https";
  return [
    `${DEVICE_COOKIE}=${device.value}`,
    `Path=${API_DEVICE_COOKIE_PATH}`,
    `Max-Age=${device.maxAgeSeconds}`,
    "HttpOnly",
    "SameSite=Strict",
    ...(secure ? ["Secure"] : []),
  ].join("; ");
}

/** The success answer's header, as the document shows it. */
export const DeviceCookieHeaders = z.object({
  "set-cookie": z.string().meta({
    description:
      "paygate_device: this client's device cookie (HttpOnly, Path=/v1/merchants/auth, 180 days). Send it back on the next sign-in (Cookie: paygate_device=…): while guesses from elsewhere have the account locked, a right password with it still signs in.",
    example:
      "paygate_device=d1.4fRk…; Path=/v1/merchants/auth; Max-Age=15552000; HttpOnly; SameSite=Strict; Secure",
  }),
});
