import { afterEach, describe, expect, it } from "vitest";
import { CLIENT_ADDRESS_HEADER, clientAddressOf, FRONT_MARK } from "./client-address";

describe("clientAddressOf", () => {
  const before = process.env[FRONT_MARK];
  afterEach(() => {
    if (before === undefined) delete process.env[FRONT_MARK];
    else process.env[FRONT_MARK] = before;
  });
  const spoofed = new Headers({ [CLIENT_ADDRESS_HEADER]: "203.0.113.7" });

  it("reads the front's header in a process server.mjs started", () => {
    process.env[FRONT_MARK] = "1";
    expect(clientAddressOf(spoofed)).toBe("203.0.113.7");
    expect(clientAddressOf(new Headers())).toBe("unknown");
  });

  it("ignores the header without the front (bare next start): a client could have set it", () => {
    delete process.env[FRONT_MARK];
    expect(clientAddressOf(spoofed)).toBe("unknown");
    process.env[FRONT_MARK] = "0";
    expect(clientAddressOf(spoofed)).toBe("unknown");
  });
});
