import { describe, expect, it } from "vitest";
import { AppError } from "@/lib/http/errors";
import { consume, reserve } from "./rate-limit";

function rateLimited(fn: () => void): AppError | undefined {
  try {
    fn();
    return undefined;
  } catch (err) {
    if (err instanceof AppError) return err;
    throw err;
  }
}

describe("token buckets", () => {
  it("allows the burst of secret-key requests, then answers 429 with Retry-After, then refills", () => {
    const subject = `key-${Math.random()}`;
    const t0 = 1_000_000;
    for (let i = 0; i < 500; i++)
      expect(rateLimited(() => consume("secret_key", subject, t0))).toBeUndefined();
    const limited = rateLimited(() => consume("secret_key", subject, t0));
    expect(limited?.code).toBe("rate_limited");
    expect(limited?.status).toBe(429);
    expect(limited?.headers["retry-after"]).toBe("1");
    // 200 tokens a second: 10 ms later two more requests pass, a third does not.
    expect(rateLimited(() => consume("secret_key", subject, t0 + 10))).toBeUndefined();
    expect(rateLimited(() => consume("secret_key", subject, t0 + 10))).toBeUndefined();
    expect(rateLimited(() => consume("secret_key", subject, t0 + 10))?.code).toBe("rate_limited");
  });

  it("keeps subjects apart; reserve() spends up front and its refund gives the token back once", () => {
    const a = `ip-${Math.random()}`;
    const b = `ip-${Math.random()}`;
    const t0 = 5_000_000;
    // Ten attempts in flight at once, none finished: the eleventh is refused before any of them is decided.
    for (let i = 0; i < 10; i++) reserve("login", a, t0);
    expect(rateLimited(() => reserve("login", a, t0))?.code).toBe("rate_limited");
    expect(rateLimited(() => reserve("login", b, t0))).toBeUndefined();
    // 5 a minute: after 12 s one token is back for `a`, with Retry-After counted in whole seconds before that.
    expect(rateLimited(() => reserve("login", a, t0 + 6_000))?.headers["retry-after"]).toBe("6");
    expect(rateLimited(() => reserve("login", a, t0 + 12_000))).toBeUndefined();

    // Successful attempts give their token back, so any number of them in a row never runs the bucket dry...
    const c = `ip-${Math.random()}`;
    for (let i = 0; i < 100; i++) reserve("login", c, t0)();
    // ...and a refund called twice returns one token, never more than the burst.
    const refund = reserve("login", c, t0);
    refund();
    refund();
    for (let i = 0; i < 10; i++) reserve("login", c, t0);
    expect(rateLimited(() => reserve("login", c, t0))?.code).toBe("rate_limited");
  });
});
