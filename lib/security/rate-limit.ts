import { env } from "@/lib/env";
import { AppError } from "@/lib/http/errors";
import { processState } from "@/lib/process-state";

/**
 * Token buckets kept in this process's memory (CONTRACT §12: in memory on one instance). Several instances
 * each keep their own buckets, so the effective limit is per instance; see README "Rate limits".
 */
type Bucket = { tokens: number; updatedAt: number };
type Policy = { burst: number; refillPerMs: number };

const buckets = processState("rateLimit.buckets", () => new Map<string, Bucket>());
/** Per bucket: attempts in flight holding one of its tokens, and attempts waiting for one (see `reserve`). */
type Holds = { held: number; waiters: Array<() => void> };
const holds = processState("rateLimit.holds", () => new Map<string, Holds>());
const MAX_BUCKETS = 100_000;

function take(key: string, policy: Policy, now: number): { allowed: boolean; retryAfterSeconds: number } {
  let bucket = buckets.get(key);
  if (!bucket) {
    if (buckets.size >= MAX_BUCKETS) sweep(now);
    bucket = { tokens: policy.burst, updatedAt: now };
    buckets.set(key, bucket);
  }
  bucket.tokens = refilled(bucket, policy, now);
  bucket.updatedAt = now;
  if (bucket.tokens >= 1) {
    bucket.tokens -= 1;
    return { allowed: true, retryAfterSeconds: 0 };
  }
  return {
    allowed: false,
    retryAfterSeconds: Math.max(1, Math.ceil((1 - bucket.tokens) / policy.refillPerMs / 1000)),
  };
}

/** The bucket's tokens at `now`, counting what has refilled since it was last touched. */
function refilled(bucket: Bucket, p: Policy, now: number): number {
  return Math.min(p.burst, bucket.tokens + (now - bucket.updatedAt) * p.refillPerMs);
}

/** The policy of a bucket key (`<limiter>:<subject>`). */
function policyOf(key: string): Policy {
  return policy(key.slice(0, key.indexOf(":")) as Limiter);
}

/**
 * Make room: first drop buckets that have refilled completely (they carry no information); if a flood of
 * new addresses still fills the table, drop the least spent ones down to 90 %. Never clear the table: that
 * would hand every address, an attacker's among them, a fresh budget.
 */
function sweep(now: number) {
  const evictable: Array<{ key: string; tokens: number }> = [];
  for (const [key, bucket] of buckets) {
    if (holds.has(key)) continue;
    const p = policyOf(key);
    const tokens = refilled(bucket, p, now);
    if (tokens >= p.burst) buckets.delete(key);
    else evictable.push({ key, tokens });
  }
  if (buckets.size < MAX_BUCKETS) return;
  evictable.sort((a, b) => b.tokens - a.tokens);
  for (const { key } of evictable.slice(0, buckets.size - Math.floor(MAX_BUCKETS * 0.9))) buckets.delete(key);
}

/**
 * The subject an address counts under: IPv4 addresses as they are, IPv6 addresses by their /64 (one
 * customer line gets a whole /64, so per-/128 limits would let one client rotate through 2^64 budgets).
 */
export function addressSubject(address: string): string {
  if (!address.includes(":")) return address;
  const bare = address.replace(/%.*$/, "");
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(bare);
  if (mapped?.[1]) return mapped[1];
  const halves = bare.split("::");
  if (halves.length > 2) return address;
  const head = halves[0] ? halves[0].split(":") : [];
  const tail = halves.length === 2 && halves[1] ? halves[1].split(":") : [];
  const groups =
    halves.length === 2
      ? [...head, ...Array(Math.max(0, 8 - head.length - tail.length)).fill("0"), ...tail]
      : head;
  if (groups.length !== 8 || !groups.every((g) => /^[0-9a-f]{1,4}$/i.test(g))) return address;
  return `${groups
    .slice(0, 4)
    .map((g) => Number.parseInt(g, 16).toString(16))
    .join(":")}::/64`;
}

export type Limiter = "login" | "access_code" | "secret_key" | "signup";

function policy(limiter: Limiter): Policy {
  const e = env();
  switch (limiter) {
    case "login":
      return { burst: e.RATE_LIMIT_LOGIN_BURST, refillPerMs: e.RATE_LIMIT_LOGIN_PER_MINUTE / 60_000 };
    case "access_code":
      return {
        burst: e.RATE_LIMIT_ACCESS_CODE_BURST,
        refillPerMs: e.RATE_LIMIT_ACCESS_CODE_PER_MINUTE / 60_000,
      };
    case "secret_key":
      return { burst: e.RATE_LIMIT_KEY_BURST, refillPerMs: e.RATE_LIMIT_KEY_PER_SECOND / 1000 };
    case "signup":
      return { burst: e.RATE_LIMIT_SIGNUP_BURST, refillPerMs: e.RATE_LIMIT_SIGNUP_PER_HOUR / 3_600_000 };
  }
}

const MESSAGES: Record<Limiter, string> = {
  login: "Too many failed sign-in attempts from this address; wait before trying again.",
  access_code: "Too many requests with unknown access codes from this address; wait before trying again.",
  secret_key: "Too many requests with this secret key; slow down and retry after the Retry-After interval.",
  signup: "Too many sign-ups from this address; wait before creating another account.",
};

/** Spend one token of `limiter` for `subject`, or throw 429 `rate_limited` with `Retry-After`. */
export function consume(limiter: Limiter, subject: string, now = Date.now()): void {
  const result = take(`${limiter}:${subject}`, policy(limiter), now);
  if (!result.allowed) {
    throw new AppError("rate_limited", MESSAGES[limiter], {
      "retry-after": String(result.retryAfterSeconds),
    });
  }
}

/** An attempt's hold on one token of a failed-attempt limiter (see `reserve`). */
export type Permit = {
  /** The attempt was good (a right password, a known access code): the token goes back. */
  refund(): void;
  /** The attempt is over; unless refunded, its token stays spent. Safe to call more than once. */
  settle(): void;
};

/** How long an attempt waits for in-flight ones to settle when the budget is all held, and how many may. */
const RESERVE_WAIT_MS = 2_000;
const MAX_WAITERS = 64;

/**
 * Hold one token of a failed-attempt limiter for the work that decides whether the attempt failed, and give
 * it back (`refund`) when the attempt turns out good. Holding before the work is what makes the limit hold
 * under parallel requests: checking first and counting failures after let any number of concurrent guesses
 * be tried before the first failure was counted, the right password among them.
 *
 * When every token is held by attempts still in flight, a new attempt waits (up to 2 s, 64 at most) for one
 * of them to settle rather than failing at once: a refund lets it through, so a burst of good requests from
 * one address (many customers behind one carrier NAT) is queued, not refused. Once nothing is in flight and
 * no token is left, it is 429 `rate_limited` with `Retry-After`. Always `settle()` the permit (in `finally`).
 */
export async function reserve(limiter: Limiter, address: string): Promise<Permit> {
  const key = `${limiter}:${addressSubject(address)}`;
  const p = policy(limiter);
  const deadline = Date.now() + RESERVE_WAIT_MS;
  for (;;) {
    const now = Date.now();
    const hold = holds.get(key) ?? { held: 0, waiters: [] };
    const result = take(key, p, now);
    if (result.allowed) {
      hold.held += 1;
      holds.set(key, hold);
      return permit(key, p, hold);
    }
    if (hold.held === 0 || now >= deadline || hold.waiters.length >= MAX_WAITERS) {
      // Nothing left in flight and nobody waiting: the entry carries nothing (or the map would only grow).
      if (hold.held === 0 && hold.waiters.length === 0 && holds.get(key) === hold) holds.delete(key);
      throw new AppError("rate_limited", MESSAGES[limiter], {
        "retry-after": String(result.retryAfterSeconds),
      });
    }
    holds.set(key, hold);
    await new Promise<void>((resolve) => {
      const timer = setTimeout(wake, deadline - now);
      function wake() {
        clearTimeout(timer);
        const at = hold.waiters.indexOf(wake);
        if (at >= 0) hold.waiters.splice(at, 1);
        resolve();
      }
      hold.waiters.push(wake);
    });
  }
}

function permit(key: string, p: Policy, hold: Holds): Permit {
  let settled = false;
  const settle = (refund: boolean) => {
    if (settled) return;
    settled = true;
    if (refund) {
      const bucket = buckets.get(key);
      if (bucket) bucket.tokens = Math.min(p.burst, bucket.tokens + 1);
    }
    hold.held -= 1;
    if (hold.held === 0 && hold.waiters.length === 0) holds.delete(key);
    // Everyone waiting looks again, in the order they came: the first takes a refunded token; with nothing
    // left in flight the rest are refused.
    for (const wake of [...hold.waiters]) wake();
  };
  return { refund: () => settle(true), settle: () => settle(false) };
}

/** For tests: the in-flight record of a bucket key, if any. */
export function holdsOf(key: string): { held: number; waiting: number } | undefined {
  const hold = holds.get(key);
  return hold && { held: hold.held, waiting: hold.waiters.length };
}
