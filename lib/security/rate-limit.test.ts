import { describe, expect, it, vi } from "vitest";
import { AppError } from "@/lib/http/errors";
import { addressSubject, consume, holdsOf, type Permit, reserve } from "./rate-limit";

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

  it("allows 20 signups from an address at once, then one every 3 minutes (20 an hour)", () => {
    const subject = `signup-${Math.random()}`;
    const t0 = 2_000_000;
    for (let i = 0; i < 20; i++) expect(rateLimited(() => consume("signup", subject, t0))).toBeUndefined();
    const limited = rateLimited(() => consume("signup", subject, t0));
    expect(limited?.code).toBe("rate_limited");
    expect(limited?.headers["retry-after"]).toBe("180");
    expect(rateLimited(() => consume("signup", subject, t0 + 179_000))?.code).toBe("rate_limited");
    expect(rateLimited(() => consume("signup", subject, t0 + 181_000))).toBeUndefined();
    expect(rateLimited(() => consume("signup", subject, t0 + 181_000))?.code).toBe("rate_limited");
  });

  it("reserve() holds a token before the work: the 11th concurrent attempt waits; a refund lets it in", async () => {
    const a = `ip-${Math.random()}`;
    const permits = await Promise.all(Array.from({ length: 10 }, () => reserve("login", a)));
    let eleventh: Permit | undefined;
    const pending = reserve("login", a).then((p) => {
      eleventh = p;
      return p;
    });
    await tick();
    expect(eleventh).toBeUndefined(); // all ten tokens are held by attempts in flight
    permits[0]?.settle(); // a failed attempt: its token stays spent
    await tick();
    expect(eleventh).toBeUndefined();
    permits[1]?.refund(); // a good attempt: its token comes back, and the waiting attempt takes it
    permits[1]?.settle();
    await pending;
    expect(eleventh).toBeDefined();

    // With nothing refunded, the next waits only until nothing is in flight, then is refused.
    const twelfth = reserve("login", a);
    for (const p of [...permits.slice(2), eleventh]) p?.settle();
    const refused = await twelfth.then(
      () => undefined,
      (err: unknown) => err,
    );
    expect(refused).toBeInstanceOf(AppError);
    expect((refused as AppError).code).toBe("rate_limited");
    expect(Number((refused as AppError).headers["retry-after"])).toBeGreaterThan(0);
    // Another address is not touched.
    (await reserve("login", `ip-${Math.random()}`)).settle();
  });

  it("good attempts never run the bucket dry, and a refund gives back one token, once", async () => {
    const c = `ip-${Math.random()}`;
    for (let i = 0; i < 100; i++) {
      const permit = await reserve("login", c);
      permit.refund();
      permit.settle();
    }
    // Two failures leave 8; an attempt refunded twice takes one and gives back one: 8 again, not 9.
    for (let i = 0; i < 2; i++) (await reserve("login", c)).settle();
    const twice = await reserve("login", c);
    twice.refund();
    twice.refund();
    twice.settle();
    const eight = await Promise.all(Array.from({ length: 8 }, () => reserve("login", c)));
    let ninth: unknown;
    const pending = reserve("login", c).then(
      () => "granted",
      (err: unknown) => err,
    );
    void pending.then((v) => {
      ninth = v;
    });
    await tick();
    expect(ninth).toBeUndefined(); // waiting on the eight in flight, not granted a ninth token
    for (const p of eight) p.settle();
    expect(await pending).toMatchObject({ code: "rate_limited" });
  });

  it("keeps no record of an address once nothing is in flight (no growth from refused bursts)", async () => {
    const e = `ip-${Math.random()}`;
    const ten = await Promise.all(Array.from({ length: 10 }, () => reserve("login", e)));
    const waiting = Array.from({ length: 5 }, () => reserve("login", e).catch((err: unknown) => err));
    for (const p of ten) p.settle();
    for (const outcome of await Promise.all(waiting)) expect(outcome).toMatchObject({ code: "rate_limited" });
    expect(holdsOf(`login:${e}`)).toBeUndefined();
  });

  it("counts IPv6 callers by their /64, IPv4 and IPv4-mapped ones by their address", () => {
    expect(addressSubject("2001:db8:1:2:3:4:5:6")).toBe("2001:db8:1:2::/64");
    expect(addressSubject("2001:db8:1:2::ffff")).toBe("2001:db8:1:2::/64");
    expect(addressSubject("2001:0DB8:0001:0002:aaaa::1%eth0")).toBe("2001:db8:1:2::/64");
    expect(addressSubject("::1")).toBe("0:0:0:0::/64");
    expect(addressSubject("::ffff:203.0.113.9")).toBe("203.0.113.9");
    expect(addressSubject("203.0.113.9")).toBe("203.0.113.9");
    expect(addressSubject("unknown")).toBe("unknown");
    expect(addressSubject("1::2::3")).toBe("1::2::3"); // not an address: counted as sent
  });

  it("a waiting attempt gives up after 2 s, and at most 64 wait at once", async () => {
    vi.useFakeTimers();
    try {
      const d = `ip-${Math.random()}`;
      const held = await Promise.all(Array.from({ length: 10 }, () => reserve("login", d)));
      const waiting = Array.from({ length: 64 }, () => reserve("login", d).catch((err: unknown) => err));
      // The 65th is refused at once rather than queued.
      await expect(reserve("login", d)).rejects.toMatchObject({ code: "rate_limited" });
      await vi.advanceTimersByTimeAsync(2_001);
      for (const outcome of await Promise.all(waiting))
        expect(outcome).toMatchObject({ code: "rate_limited" });
      for (const p of held) p.settle();
    } finally {
      vi.useRealTimers();
    }
  });
});

describe("a full table of buckets", () => {
  // Last in the file: it fills the process's table, evicting other subjects' least-spent buckets.
  it("makes room without handing a spent address a fresh budget", async () => {
    const attacker = `ip-${Math.random()}`;
    for (let i = 0; i < 10; i++) (await reserve("login", attacker)).settle();
    await expect(reserve("login", attacker)).rejects.toMatchObject({ code: "rate_limited" });
    // A flood of fresh addresses, each spending one token: more than the table holds.
    for (let i = 0; i < 100_050; i++) consume("access_code", `flood-${i}`);
    await expect(reserve("login", attacker)).rejects.toMatchObject({ code: "rate_limited" });
  });
});

const tick = () => new Promise((r) => setTimeout(r, 5));
