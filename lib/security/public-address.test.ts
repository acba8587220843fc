import { describe, expect, it } from "vitest";
import { isBlockedAddress } from "./public-address";

describe("isBlockedAddress: only globally routable unicast addresses are public (webhook targets, logos on production)", () => {
  const blocked = [
    // IPv4 special-purpose registry, multicast, reserved
    "0.0.0.0",
    "10.1.2.3",
    "100.64.0.1",
    "127.0.0.1",
    "169.254.169.254",
    "172.16.0.5",
    "172.31.255.255",
    "192.0.0.8",
    "192.0.2.2",
    "192.31.196.1",
    "192.52.193.1",
    "192.88.99.1",
    "192.168.1.10",
    "192.175.48.6",
    "198.18.0.1",
    "198.19.255.255",
    "198.51.100.7",
    "203.0.113.9",
    "224.0.0.1",
    "239.255.255.250",
    "240.0.0.1",
    "255.255.255.255",
    // IPv6 outside global unicast, and the special blocks inside it
    "::",
    "::1",
    "::127.0.0.1", // IPv4-compatible
    "::ffff:0:127.0.0.1", // SIIT IPv4-translated
    "64:ff9b::7f00:1", // NAT64 well-known prefix
    "64:ff9b:1::1", // NAT64 local use
    "100::1", // discard-only
    "2001::1", // Teredo
    "2001:db8::1", // documentation
    "2002:7f00:1::", // 6to4
    "3fff::1", // documentation
    "5f00::1", // SRv6 SIDs
    "fc00::1",
    "fd00::2",
    "fe80::1",
    "fe80::1%eth0",
    "ff02::1",
    // IPv4-mapped: judged by the IPv4 address inside, in either notation
    "::ffff:127.0.0.1",
    "::ffff:7f00:1",
    "::ffff:a9fe:a9fe",
    "::ffff:192.0.2.2",
    // not an address at all
    "localhost",
    "",
  ];
  const allowed = [
    "8.8.8.8",
    "1.1.1.1",
    "172.32.0.1",
    "192.0.3.1",
    "198.20.0.1",
    "223.255.255.254",
    "2606:4700:4700::1111",
    "2a00:1450:4001:81c::200e",
    "2001:4860:4860::8888", // outside 2001::/23
    "::ffff:8.8.8.8",
    "[2606:4700::1]",
  ];

  it.each(blocked)("refuses %s", (address) => {
    expect(isBlockedAddress(address)).toBe(true);
  });

  it.each(allowed)("accepts %s", (address) => {
    expect(isBlockedAddress(address)).toBe(false);
  });
});
