import { describe, expect, it } from "vitest";
import { webhookAddressAllowed } from "./webhook-addresses";

describe("PAYSTACK_WEBHOOK_ALLOWED_IPS", () => {
  it("unset: any address (the signature decides)", () => {
    expect(webhookAddressAllowed("10.0.0.1", undefined)).toBe(true);
  });
  it("paystack: Paystack's three published addresses only, IPv4 written as IPv6 too", () => {
    for (const ip of ["52.31.139.75", "52.49.173.169", "52.214.14.220", "::ffff:52.31.139.75"])
      expect(webhookAddressAllowed(ip, "paystack"), ip).toBe(true);
    for (const ip of ["52.31.139.76", "127.0.0.1", "::1", ""])
      expect(webhookAddressAllowed(ip, "paystack"), ip).toBe(false);
  });
  it("a list: exactly its addresses", () => {
    expect(webhookAddressAllowed("127.0.0.1", "127.0.0.1,52.31.139.75")).toBe(true);
    expect(webhookAddressAllowed("127.0.0.2", "127.0.0.1,52.31.139.75")).toBe(false);
  });
});
