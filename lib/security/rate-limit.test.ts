import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { AppError } from "@/lib/core/errors";
import { addressSubject, consume, type Permit, reserve } from "./rate-limit";
import { useMemoryRateLimits } from "./rate-limit-store";

// The semantics, on the in-memory store; the database and Redis stores are the same counters shared between
// processes, and the HTTP suites (tests/instances.test.ts, tests/redis.test.ts) check them across processes and instances.
beforeAll(() => useMemoryRateLimits());
afterEach(() => vi.useRealTimers());

async function refusal(run: () => Promise<unknown>): Promise<AppError | undefined> {
  try {
    await run();
    return undefined;
  } catch (err) {
    if (err instanceof AppError) return err;
    throw err;
  }
}

const tick = () => new Promise((r) => setTimeout(r, 5));

describe("budgets", () => {
  it("allows the burst of secret-key requests, then answers 429 with Retry-After, then a new window", async () => {
    vi.useFakeTimers();
    const subject = `key-${Math.random()}`;
    for (let i = 0; i < 500; i++) expect(await refusal(() => consume("secret_key", subject))).toBeUndefined();
    const limited = await refusal(() => consume("secret_key", subject));
    expect(limited?.code).toBe("rate_limited");
    expect(limited?.status).toBe(429);
    // 500 at 200 a second: a window of 3 s (2.5 rounded); Retry-After says when it ends.
    expect(Number(limited?.headers["retry-after"])).toBeGreaterThanOrEqual(1);
    expect(Number(limited?.headers["retry-after"])).toBeLessThanOrEqual(3);
    await vi.advanceTimersByTimeAsync(3_001);
    expect(await refusal(() => consume("secret_key", subject))).toBeUndefined();
  });

  it("allows 20 signups from an address, then 429 until the hour's window ends", async () => {
    vi.useFakeTimers();
    const subject = `signup-${Math.random()}`;
    for (let i = 0; i < 20; i++) expect(await refusal(() => consume("signup", subject))).toBeUndefined();
    const limited = await refusal(() => consume("signup", subject));
    expect(limited?.code).toBe("rate_limited");
    expect(Number(limited?.headers["retry-after"])).toBe(3600);
    await vi.advanceTimersByTimeAsync(3_599_000);
    expect((await refusal(() => consume("signup", subject)))?.code).toBe("rate_limited");
    await vi.advanceTimersByTimeAsync(2_000);
    expect(await refusal(() => consume("signup", subject))).toBeUndefined();
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
});

describe("reserve: failed-attempt budgets held for the work", () => {
  it("holds a request before the work: the 11th concurrent attempt waits; a refund lets it in", async () => {
    const a = `ip-${Math.random()}`;
    const permits = await Promise.all(Array.from({ length: 10 }, () => reserve("login", a)));
    let eleventh: Permit | undefined;
    const pending = reserve("login", a).then((p) => {
      eleventh = p;
      return p;
    });
    await tick();
    expect(eleventh).toBeUndefined(); // all ten are held by attempts in flight
    await permits[0]?.settle(); // a failed attempt: its request stays spent
    await tick();
    expect(eleventh).toBeUndefined();
    permits[1]?.refund(); // a good attempt: its request comes back, and the waiting attempt takes it
    await permits[1]?.settle();
    await pending;
    expect(eleventh).toBeDefined();

    // With nothing refunded, the next waits only until nothing is in flight, then is refused.
    const twelfth = reserve("login", a);
    await Promise.all([...permits.slice(2), eleventh].map((p) => p?.settle()));
    const refused = await twelfth.then(
      () => undefined,
      (err: unknown) => err,
    );
    expect(refused).toBeInstanceOf(AppError);
    expect((refused as AppError).code).toBe("rate_limited");
    expect(Number((refused as AppError).headers["retry-after"])).toBeGreaterThan(0);
    // Another address is not touched.
    await (await reserve("login", `ip-${Math.random()}`)).settle();
  });

  it("good attempts never spend the budget, and a refund gives back one request, once", async () => {
    const c = `ip-${Math.random()}`;
    for (let i = 0; i < 100; i++) {
      const permit = await reserve("login", c);
      permit.refund();
      await permit.settle();
    }
    // Two failures leave 8; an attempt refunded twice and settled twice takes one and gives back one.
    for (let i = 0; i < 2; i++) await (await reserve("login", c)).settle();
    const twice = await reserve("login", c);
    twice.refund();
    twice.refund();
    await twice.settle();
    await twice.settle();
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
    expect(ninth).toBeUndefined(); // waiting on the eight in flight, not granted a ninth
    await Promise.all(eight.map((p) => p.settle()));
    expect(await pending).toMatchObject({ code: "rate_limited" });
  });

  it("refused tries do not count: after many 429s, one refund still lets exactly one attempt in", async () => {
    const f = `ip-${Math.random()}`;
    const held = await Promise.all(Array.from({ length: 10 }, () => reserve("login", f)));
    await Promise.all(held.slice(1).map((p) => p.settle())); // nine failures; one attempt still in flight
    const waiters = Array.from({ length: 30 }, () => reserve("login", f).catch((err: unknown) => err));
    await tick();
    held[0]?.refund();
    await held[0]?.settle();
    const outcomes = await Promise.all(waiters);
    const granted = outcomes.filter((o) => !(o instanceof AppError));
    expect(granted).toHaveLength(1);
    expect(outcomes.filter((o) => o instanceof AppError && o.code === "rate_limited")).toHaveLength(29);
    await (granted[0] as Permit).settle();
  });

  it("a waiting attempt gives up once nothing has settled for 2 s, and at most 256 wait at once", async () => {
    vi.useFakeTimers();
    const d = `ip-${Math.random()}`;
    const held = await Promise.all(Array.from({ length: 10 }, () => reserve("login", d)));
    const waiting = Array.from({ length: 256 }, () => reserve("login", d).catch((err: unknown) => err));
    await vi.advanceTimersByTimeAsync(10);
    // The 257th is refused at once rather than queued.
    await expect(reserve("login", d)).rejects.toMatchObject({ code: "rate_limited" });
    await vi.advanceTimersByTimeAsync(2_100);
    for (const outcome of await Promise.all(waiting)) expect(outcome).toMatchObject({ code: "rate_limited" });
    await Promise.all(held.map((p) => p.settle()));
  });

  it("while the queue moves, a waiting attempt waits past 2 s", async () => {
    vi.useFakeTimers();
    const q = `ip-${Math.random()}`;
    const holds = await Promise.all(Array.from({ length: 10 }, () => reserve("login", q)));
    let outcome: unknown;
    void reserve("login", q).then(
      (p) => {
        outcome = p;
      },
      (err: unknown) => {
        outcome = err;
      },
    );
    // One attempt in flight settles every 1.5 s (failed: nothing comes back): 13.5 s of a queue that moves.
    for (const hold of holds.slice(0, 9)) {
      await vi.advanceTimersByTimeAsync(1_500);
      await hold.settle();
    }
    await vi.advanceTimersByTimeAsync(100);
    expect(outcome).toBeUndefined();
    // The last one turns out good: its request goes to the attempt that waited 13.6 s.
    holds[9]?.refund();
    await holds[9]?.settle();
    await vi.advanceTimersByTimeAsync(100);
    expect(outcome).toHaveProperty("settle");
    await (outcome as Permit).settle();
  });

  it("a waiting attempt waits 15 s at most, however the queue moves", async () => {
    vi.useFakeTimers();
    const r = `ip-${Math.random()}`;
    const holds = await Promise.all(Array.from({ length: 30 }, () => reserve("access_code", r)));
    let outcome: unknown;
    void reserve("access_code", r).catch((err: unknown) => {
      outcome = err;
    });
    for (const hold of holds.slice(0, 14)) {
      await vi.advanceTimersByTimeAsync(1_000);
      await hold.settle();
    }
    expect(outcome).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1_100);
    expect(outcome).toMatchObject({ code: "rate_limited" });
    await Promise.all(holds.slice(14).map((p) => p.settle()));
  });
});
