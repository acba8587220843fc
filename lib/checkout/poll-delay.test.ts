import { describe, expect, it } from "vitest";
import { pollDelay } from "./poll-delay";

describe("checkout poll back-off", () => {
  it("polls every 1.5 s while a payment is in flight, every 5 s while pending", () => {
    for (const status of [
      "awaiting_transfer",
      "awaiting_bank_authorization",
      "awaiting_ussd",
      "awaiting_otp",
    ] as const)
      expect(pollDelay(status, 0)).toBe(1_500);
    expect(pollDelay("pending", 0)).toBe(5_000);
  });

  it("doubles for every full 30 s without news", () => {
    const waiting = [0, 29_999, 30_000, 59_999, 60_000, 90_000].map((q) => pollDelay("awaiting_transfer", q));
    expect(waiting).toEqual([1_500, 1_500, 3_000, 3_000, 6_000, 12_000]);
    expect(pollDelay("pending", 29_999)).toBe(5_000);
    expect(pollDelay("pending", 30_000)).toBe(10_000);
  });

  it("never waits more than 15 s", () => {
    expect(pollDelay("awaiting_transfer", 120_000)).toBe(15_000);
    expect(pollDelay("awaiting_ussd", 60 * 60_000)).toBe(15_000);
    expect(pollDelay("pending", 60_000)).toBe(15_000);
    expect(pollDelay("pending", 24 * 60 * 60_000)).toBe(15_000);
  });
});
