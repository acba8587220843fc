import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import { isIP } from "node:net";
import { env } from "@/lib/env";
import { isBlockedAddress, isInternalHostName } from "@/lib/security/public-address";

/**
 * Outgoing webhook requests go only to http(s) URLs and, unless allowed (staging default, or
 * WEBHOOK_ALLOW_PRIVATE_TARGETS=1), only to public addresses (lib/security/public-address.ts). The check runs
 * at input and again on the address actually connected to (a `lookup` hook), so DNS rebinding cannot dodge it.
 */
export function privateTargetsAllowed(): boolean {
  const setting = env().WEBHOOK_ALLOW_PRIVATE_TARGETS;
  if (setting !== undefined) return setting === "1" || setting === "true";
  return env().PAYMENTS_ENV !== "production";
}

/** Why a webhook URL is refused, or null. For input validation and again before every send. */
export function urlProblem(raw: string): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return "must be an absolute URL";
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") return "must use http or https";
  if (url.username || url.password) return "must not contain credentials";
  const host = url.hostname.replace(/^\[|\]$/g, "");
  if (!privateTargetsAllowed()) {
    if (isInternalHostName(host)) return "must not point to an internal host";
    if (isIP(host) && isBlockedAddress(host))
      return "must point to a globally routable address (not private, loopback, link-local, reserved or documentation)";
  }
  return null;
}

type LookupCallback = (
  err: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void;

/** A `lookup` for http.request that refuses blocked addresses when private targets are not allowed. */
export function guardedLookup(hostname: string, options: object, callback: LookupCallback): void {
  dnsLookup(hostname, { ...options, all: true }, (err, addresses) => {
    if (err) return callback(err, []);
    const list = addresses as LookupAddress[];
    if (!privateTargetsAllowed() && list.some((a) => isBlockedAddress(a.address))) {
      const refused = Object.assign(new Error(`${hostname} resolves to a private or internal address`), {
        code: "EBLOCKED",
      });
      return callback(refused, []);
    }
    if ((options as { all?: boolean }).all) return callback(null, list);
    const first = list[0];
    if (!first)
      return callback(Object.assign(new Error(`${hostname} has no address`), { code: "ENOTFOUND" }), []);
    callback(null, first.address, first.family);
  });
}
