import { afterEach, describe, expect, it } from "vitest";
import { CLIENT_ADDRESS_HEADER, clientAddressOf, FRONT_MARK } from "./client-address";

describe("clientAddressOf", () => {
  const global = globalThis as Record<symbol, unknown>;
  afterEach(() => {
    delete global[FRONT_MARK];
    delete process.env.PAYGATE_FRONT;
  });
  const spoofed = new Headers({ [CLIENT_ADDRESS_HEADER]: "203.0.113.7" });

  it("reads the front's header in a process server.mjs started", () => {
    global[FRONT_MARK] = true;
    expect(clientAddressOf(spoofed)).toBe("203.0.113.7");
    expect(clientAddressOf(new Headers())).toBe("unknown");
  });

  it("ignores the header without the front (bare next start), whatever the environment says", () => {
    expect(clientAddressOf(spoofed)).toBe("unknown");
    process.env.PAYGATE_FRONT = "1"; // an environment variable could be set from outside; it is not the mark
    expect(clientAddressOf(spoofed)).toBe("unknown");
  });
});
