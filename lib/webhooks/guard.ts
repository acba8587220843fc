import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import { BlockList, isIP } from "node:net";
import { env } from "@/lib/env";

/**
 * Outgoing webhook requests go only to http(s) URLs and, unless allowed (staging default, or
 * WEBHOOK_ALLOW_PRIVATE_TARGETS=1), never to private, loopback, link-local or otherwise internal addresses.
 * The check runs on the address actually connected to (a `lookup` hook), so DNS rebinding cannot dodge it.
 */
const blocked = new BlockList();
for (const [net, prefix] of [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["224.0.0.0", 3],
] as const) {
  blocked.addSubnet(net, prefix, "ipv4");
}
for (const [net, prefix] of [
  ["::", 128],
  ["::1", 128],
  ["fc00::", 7],
  ["fe80::", 10],
  ["ff00::", 8],
] as const) {
  blocked.addSubnet(net, prefix, "ipv6");
}

export function privateTargetsAllowed(): boolean {
  const setting = env().WEBHOOK_ALLOW_PRIVATE_TARGETS;
  if (setting !== undefined) return setting === "1" || setting === "true";
  return env().PAYMENTS_ENV !== "production";
}

export function isBlockedAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped?.[1]) return blocked.check(mapped[1], "ipv4");
  const family = isIP(address);
  if (family === 4) return blocked.check(address, "ipv4");
  if (family === 6) return blocked.check(address, "ipv6");
  return true;
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
    if (host === "localhost" || host.endsWith(".localhost") || host.endsWith(".internal"))
      return "must not point to an internal host";
    if (isIP(host) && isBlockedAddress(host))
      return "must not point to a private, loopback or link-local address";
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
