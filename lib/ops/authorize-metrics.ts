import { timingSafeEqual } from "node:crypto";
import { BlockList, isIPv4 } from "node:net";
import { AppError } from "@/lib/core/errors";
import { env } from "@/lib/env";
import { processState } from "@/lib/process-state";

/** METRICS_ALLOWED_ADDRESSES as Node's address matcher (lib/env.ts has checked every entry). */
const allowed = () =>
  processState("metrics.allowed", () => {
    const list = new BlockList();
    for (const entry of (env().METRICS_ALLOWED_ADDRESSES ?? "").split(",")) {
      const [address = "", prefix] = entry.trim().split("/");
      if (!address) continue;
      const family = isIPv4(address) ? "ipv4" : "ipv6";
      if (prefix === undefined) list.addAddress(address, family);
      else list.addSubnet(address, Number(prefix), family);
    }
    return list;
  });

function listed(address: string): boolean {
  // An IPv4 client on a dual-stack socket is `::ffff:10.1.2.3`: the IPv4 address.
  const plain = address.replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/i, "");
  const family = isIPv4(plain) ? "ipv4" : "ipv6";
  try {
    return allowed().check(plain, family);
  } catch {
    return false;
  }
}

function tokenMatches(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * Who may read GET /v1/metrics: a bearer METRICS_TOKEN, or a client address in METRICS_ALLOWED_ADDRESSES
 * (docs/deploy.md "Metrics"). A wrong token is refused whatever the address, so a misconfigured scraper is
 * noticed rather than let in by where it sits.
 */
export function authorizeMetrics(input: { authorization: string | null; clientAddress: string }): void {
  const token = env().METRICS_TOKEN;
  const bearer = input.authorization ? /^Bearer\s+(\S+)\s*$/i.exec(input.authorization)?.[1] : undefined;
  if (input.authorization !== null) {
    if (token && bearer && tokenMatches(bearer, token)) return;
    throw new AppError("invalid_metrics_token", "The metrics token is not this service's METRICS_TOKEN.", {
      "www-authenticate": 'Bearer realm="metrics"',
    });
  }
  if (listed(input.clientAddress)) return;
  if (token)
    throw new AppError(
      "invalid_metrics_token",
      "GET /v1/metrics needs `Authorization: Bearer <METRICS_TOKEN>` from this address.",
      { "www-authenticate": 'Bearer realm="metrics"' },
    );
  throw new AppError(
    "address_not_allowed",
    "GET /v1/metrics answers only addresses in METRICS_ALLOWED_ADDRESSES, or a METRICS_TOKEN; neither is set for this address.",
  );
}
