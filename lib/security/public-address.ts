import { BlockList, isIP } from "node:net";

/**
 * Which addresses are public: globally routable unicast ones. An allow list, not a block list: IPv6 must be
 * global unicast (2000::/3) outside the special-purpose blocks inside it, so every transition form that carries
 * an IPv4 address (NAT64 64:ff9b::/96, 6to4 2002::/16, IPv4-compatible ::/96, SIIT ::ffff:0:0:0/96, Teredo) is
 * refused whatever the address it carries; only IPv4-mapped addresses (::ffff:0:0/96) are judged by the IPv4
 * address inside. IPv4 must be outside every block of the IANA IPv4 Special-Purpose Address Registry,
 * multicast and the reserved 240.0.0.0/4. Webhook targets (lib/webhooks/guard.ts) and merchant logos on
 * production (lib/merchants/logo-url.ts) are held to it.
 */
const IPV4_SPECIAL: ReadonlyArray<readonly [string, number]> = [
  ["0.0.0.0", 8], // "this network"
  ["10.0.0.0", 8], // private
  ["100.64.0.0", 10], // shared address space (carrier-grade NAT)
  ["127.0.0.0", 8], // loopback
  ["169.254.0.0", 16], // link-local
  ["172.16.0.0", 12], // private
  ["192.0.0.0", 24], // IETF protocol assignments
  ["192.0.2.0", 24], // documentation (TEST-NET-1)
  ["192.31.196.0", 24], // AS112-v4
  ["192.52.193.0", 24], // AMT
  ["192.88.99.0", 24], // deprecated 6to4 relay anycast
  ["192.168.0.0", 16], // private
  ["192.175.48.0", 24], // direct delegation AS112 service
  ["198.18.0.0", 15], // benchmarking
  ["198.51.100.0", 24], // documentation (TEST-NET-2)
  ["203.0.113.0", 24], // documentation (TEST-NET-3)
  ["224.0.0.0", 4], // multicast
  ["240.0.0.0", 4], // reserved, and the limited broadcast address
];
const IPV6_SPECIAL_IN_GLOBAL: ReadonlyArray<readonly [string, number]> = [
  ["2001::", 23], // IETF protocol assignments (Teredo, benchmarking, ORCHID, ...)
  ["2001:db8::", 32], // documentation
  ["2002::", 16], // 6to4: carries an IPv4 address
  ["3fff::", 20], // documentation
];

const ipv4Blocked = new BlockList();
for (const [net, prefix] of IPV4_SPECIAL) ipv4Blocked.addSubnet(net, prefix, "ipv4");
const ipv6GlobalUnicast = new BlockList();
ipv6GlobalUnicast.addSubnet("2000::", 3, "ipv6");
const ipv6Blocked = new BlockList();
for (const [net, prefix] of IPV6_SPECIAL_IN_GLOBAL) ipv6Blocked.addSubnet(net, prefix, "ipv6");
const ipv4Mapped = new BlockList();
ipv4Mapped.addSubnet("::ffff:0:0", 96, "ipv6");

/** Whether an IP address literal is not public (anything not a globally routable unicast address); true for a non-address. */
export function isBlockedAddress(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, "").replace(/%.*$/, "");
  const family = isIP(bare);
  if (family === 4) return ipv4Blocked.check(bare, "ipv4");
  if (family !== 6) return true;
  if (ipv4Mapped.check(bare, "ipv6")) {
    // ::ffff:a.b.c.d (or its hex form ::ffff:7f00:1): judged by the IPv4 address it carries.
    return ipv4Blocked.check(bare, "ipv6");
  }
  return !ipv6GlobalUnicast.check(bare, "ipv6") || ipv6Blocked.check(bare, "ipv6");
}

/** Host names that never name a public host: localhost and its subdomains, and `.internal`. */
export function isInternalHostName(host: string): boolean {
  const name = host.toLowerCase().replace(/\.$/, "");
  return name === "localhost" || name.endsWith(".localhost") || name.endsWith(".internal");
}
