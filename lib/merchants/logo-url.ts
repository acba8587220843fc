import { isIP } from "node:net";
import { env } from "@/lib/env";
import { isBlockedAddress, isInternalHostName } from "@/lib/security/public-address";

/**
 * Why a merchant's logo URL (PUT /v1/merchants/settings `logoUrl`) is refused, or null. The checkout and the
 * payment link pages show it as an image. Production serves them over https, so it takes https only (an http
 * image on an https page is mixed content: blocked or shown as "not secure"), on a public host (a customer's
 * browser must not be pointed at its own machine or network: localhost, `.internal`, loopback, private or
 * link-local addresses). Staging also takes http and any host, for a shop under development.
 */
export function logoUrlProblem(raw: string, production = env().PAYMENTS_ENV === "production"): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return "must be an http(s) URL";
  }
  if (url.username || url.password) return "must not carry a user name or password";
  if (!production)
    return url.protocol === "https:" || url.protocol === "http:" ? null : "must be an http(s) URL";
  if (url.protocol !== "https:")
    return "must be an https URL on production (an http image on the https checkout is mixed content)";
  const host = url.hostname.replace(/^\[|\]$/g, "");
  if (isInternalHostName(host) || (isIP(host) !== 0 && isBlockedAddress(host)))
    return "must point to a public host on production (not localhost, loopback, private or link-local)";
  return null;
}
