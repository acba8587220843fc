import { type RateLimiterAbstract, RateLimiterRes } from "rate-limiter-flexible";
import { AppError } from "@/lib/core/errors";
import { env } from "@/lib/env";
import { log } from "@/lib/log";
import { processState } from "@/lib/process-state";
import { pepper } from "./pepper";
import { createLimiter } from "./rate-limit-store";
import { keyedHash } from "./tokens";

/**
 * Rate limits, with budgets shared by every process and instance (lib/security/rate-limit-store.ts says
 * where they live). Each limit is `burst` requests per window of `burst ÷ rate` (rounded to whole seconds):
 * the same burst and the same sustained rate as a token bucket of that size and refill, counted by
 * rate-limiter-flexible in a fixed window, which every store can do atomically. Unlike a bucket, a fixed window
 * lets up to twice the burst through across a window's edge (docs/decisions/006-rate-limits.md).
 */
export type Limiter = "login" | "access_code" | "secret_key" | "signup" | "redeliver" | "account_email";

type Policy = { points: number; duration: number };

/** `burst` per window, the window lasting as long as `ratePerSecond` takes to earn `burst` (at least 1 s). */
function windowOf(burst: number, ratePerSecond: number): Policy {
  return { points: burst, duration: Math.max(1, Math.round(burst / ratePerSecond)) };
}

function policy(limiter: Limiter): Policy {
  const e = env();
  switch (limiter) {
    case "login":
      return windowOf(e.RATE_LIMIT_LOGIN_BURST, e.RATE_LIMIT_LOGIN_PER_MINUTE / 60);
    case "access_code":
      return windowOf(e.RATE_LIMIT_ACCESS_CODE_BURST, e.RATE_LIMIT_ACCESS_CODE_PER_MINUTE / 60);
    case "secret_key":
      return windowOf(e.RATE_LIMIT_KEY_BURST, e.RATE_LIMIT_KEY_PER_SECOND);
    case "signup":
      return windowOf(e.RATE_LIMIT_SIGNUP_BURST, e.RATE_LIMIT_SIGNUP_PER_HOUR / 3600);
    case "redeliver":
      return windowOf(e.RATE_LIMIT_REDELIVER_BURST, e.RATE_LIMIT_REDELIVER_PER_MINUTE / 60);
    // Emails asked for without a session (a password reset), per address and per email: signup's budget.
    case "account_email":
      return windowOf(e.RATE_LIMIT_SIGNUP_BURST, e.RATE_LIMIT_SIGNUP_PER_HOUR / 3600);
  }
}

const MESSAGES: Record<Limiter, string> = {
  login: "Too many failed sign-in attempts from this address; wait before trying again.",
  access_code: "Too many requests with unknown access codes from this address; wait before trying again.",
  secret_key: "Too many requests with this secret key; slow down and retry after the Retry-After interval.",
  signup: "Too many sign-ups from this address; wait before creating another account.",
  redeliver: "Too many redeliveries; wait before asking for more.",
  account_email: "Too many password-reset emails asked for; wait before asking again.",
};

/** Points no hold counter reaches: in-flight attempts are counted, never refused. */
const UNLIMITED = 2_000_000_000;
/** How long an in-flight count outlives its last change: a process that died holding a token stops counting. */
const HELD_WINDOW_SECONDS = 60;

type Limiters = { budget: RateLimiterAbstract; held: RateLimiterAbstract };
const limiters = processState("rateLimit.limiters", () => new Map<Limiter, Limiters>());

function limitersOf(limiter: Limiter): Limiters {
  let pair = limiters.get(limiter);
  if (!pair) {
    pair = {
      budget: createLimiter({ keyPrefix: limiter, ...policy(limiter) }),
      held: createLimiter({ keyPrefix: `${limiter}_held`, points: UNLIMITED, duration: HELD_WINDOW_SECONDS }),
    };
    limiters.set(limiter, pair);
  }
  return pair;
}

/** For tests: forget the limiters, so the next use builds them again (from a changed store or policy). */
export function resetLimiters(): void {
  limiters.clear();
  accountLimiters.clear();
}

function rateLimited(limiter: Limiter, refusal: RateLimiterRes): AppError {
  return new AppError("rate_limited", MESSAGES[limiter], {
    "retry-after": String(Math.max(1, Math.ceil(refusal.msBeforeNext / 1000))),
  });
}

/** The store did not answer: the request cannot be judged, so it is not served (503, never a 500). */
function storeUnavailable(err: unknown): AppError {
  log.error("rate-limit store unavailable", { error: err instanceof Error ? err.message : String(err) });
  return new AppError(
    "service_unavailable",
    "The service cannot take this request right now; try again in a moment.",
    { "retry-after": "1" },
  );
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

/** Spend one request of `limiter`'s budget for `subject`, or throw 429 `rate_limited` with `Retry-After`. */
export async function consume(limiter: Limiter, subject: string): Promise<void> {
  try {
    await limitersOf(limiter).budget.consume(subject);
  } catch (err) {
    if (err instanceof RateLimiterRes) throw rateLimited(limiter, err);
    throw storeUnavailable(err);
  }
}

/** An attempt's hold on one request of a failed-attempt budget (see `reserve`). */
export type Permit = {
  /** The attempt was good (a right password, a known access code): its request goes back to the budget. */
  refund(): void;
  /** The attempt is over; unless refunded, its request stays spent. Safe to call more than once. */
  settle(): Promise<void>;
};

/**
 * How long an attempt waits when the budget is all held: while the attempts in flight keep settling, up to
 * `RESERVE_WAIT_MS`; once none has settled for `RESERVE_STALL_MS`, no longer. How many may wait per process.
 */
const RESERVE_WAIT_MS = 15_000;
const RESERVE_STALL_MS = 2_000;
const MAX_WAITERS = 256;
/** How often a waiting attempt looks again for a request given back by another process or instance. */
const RESERVE_POLL_MS = 50;

/** Attempts of this process waiting on a budget, woken when one of this process's holds settles. */
const waiting = processState("rateLimit.waiting", () => new Map<string, Set<() => void>>());

function wakeWaiters(key: string): void {
  for (const wake of [...(waiting.get(key) ?? [])]) wake();
}

/** Wait up to `ms` for a hold of this process to settle: true when one did, false when the time ran out. */
function waitForSettle(key: string, ms: number): Promise<boolean> {
  return new Promise((resolve) => {
    let set = waiting.get(key);
    if (!set) {
      set = new Set();
      waiting.set(key, set);
    }
    const waiters = set;
    const timer = setTimeout(() => done(false), ms);
    const wake = () => done(true);
    function done(settled: boolean) {
      clearTimeout(timer);
      waiters.delete(wake);
      if (waiters.size === 0 && waiting.get(key) === waiters) waiting.delete(key);
      resolve(settled);
    }
    waiters.add(wake);
  });
}

/**
 * Hold one request of a failed-attempt budget for the work that decides whether the attempt failed, and give
 * it back (`refund`) when the attempt turns out good. Holding before the work is what makes the limit hold
 * under parallel requests: checking first and counting failures after let any number of concurrent guesses
 * be tried before the first failure was counted, the right password among them.
 *
 * Attempts in flight are counted too (a second counter, shared like the budget). When the budget is spent
 * but attempts are still in flight anywhere, a new attempt waits for one of them to give its request back,
 * rather than failing at once: a burst of good requests from one address (many customers behind one carrier
 * NAT, spread over several instances) is queued, not refused. The wait lasts while the queue moves (an
 * attempt settling here, or fewer in flight anywhere, within 2 s of the last), up to 15 s, with at most 256
 * waiting per process. Once nothing is in flight and nothing is left, or the queue stops moving, it is 429
 * `rate_limited` with `Retry-After`. Always `settle()` the permit (in `finally`).
 */
export async function reserve(limiter: Limiter, address: string): Promise<Permit> {
  const subject = addressSubject(address);
  const { budget, held } = limitersOf(limiter);
  const key = `${limiter}:${subject}`;
  const started = Date.now();
  const deadline = started + RESERVE_WAIT_MS;
  let stallsAt = started + RESERVE_STALL_MS;
  let lastInFlight = Number.POSITIVE_INFINITY;
  let sawNothingInFlight = false;
  for (;;) {
    try {
      await budget.consume(subject);
    } catch (err) {
      if (!(err instanceof RateLimiterRes)) throw storeUnavailable(err);
      // The refused try still counted; take it back, so a request given back can let a waiter through.
      let inFlight: number;
      try {
        await budget.reward(subject, 1);
        inFlight = Math.max(0, (await held.get(subject))?.consumedPoints ?? 0);
      } catch (storeErr) {
        throw storeUnavailable(storeErr);
      }
      const now = Date.now();
      // Fewer in flight than last time: attempts settled somewhere (another process or instance).
      if (inFlight < lastInFlight) stallsAt = now + RESERVE_STALL_MS;
      lastInFlight = inFlight;
      const giveUpAt = Math.min(deadline, stallsAt);
      // Nothing in flight is only believed when seen twice, a poll apart: an attempt that has just taken
      // the budget's last request is counted in flight one store round trip later.
      const nothingInFlight = inFlight === 0 && sawNothingInFlight;
      sawNothingInFlight = inFlight === 0;
      if (nothingInFlight || now >= giveUpAt || (waiting.get(key)?.size ?? 0) >= MAX_WAITERS) {
        throw rateLimited(limiter, err);
      }
      if (await waitForSettle(key, Math.min(RESERVE_POLL_MS, giveUpAt - now))) {
        stallsAt = Date.now() + RESERVE_STALL_MS;
      }
      continue;
    }
    try {
      await held.consume(subject);
    } catch (err) {
      await budget.reward(subject, 1).catch(() => undefined);
      throw storeUnavailable(err);
    }
    return permit(limiter, key, subject);
  }
}

function permit(limiter: Limiter, key: string, subject: string): Permit {
  const { budget, held } = limitersOf(limiter);
  let refunded = false;
  let settled = false;
  return {
    refund() {
      refunded = true;
    },
    async settle() {
      if (settled) return;
      settled = true;
      try {
        // The request goes back before the hold is released: whoever sees nothing in flight sees the
        // budget with every refund in it.
        if (refunded) await budget.reward(subject, 1);
        await held.reward(subject, 1);
      } catch (err) {
        // The attempt's own answer stands; at worst its request stays spent until the window ends.
        log.warn("rate-limit hold not released", {
          limiter,
          error: err instanceof Error ? err.message : String(err),
        });
      } finally {
        wakeWaiters(key);
      }
    },
  };
}

// ---------------------------------------------------------------------------------------------------------
// Failed sign-ins per account

/** How long failures are remembered between two sign-in attempts of one account (a right one forgets them). */
const ACCOUNT_FAILURES_KEPT_SECONDS = 24 * 60 * 60;

/**
 * What the owner of a locked account is told (the console's sign-in page shows it as it is): what happened,
 * and the two ways in, a browser signed in with before, or the wait.
 */
function accountLocked(seconds: number): string {
  const minutes = Math.max(1, Math.ceil(seconds / 60));
  return `Too many wrong passwords were tried on this account, so it is locked for now against browsers it has not been signed in with. If it is yours, sign in from a browser you have signed in with before (it is still let in), or try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`;
}

type AccountScope = "account" | "account_address" | "device";
const accountLimiters = processState(
  "rateLimit.accountLimiters",
  () => new Map<AccountScope, RateLimiterAbstract>(),
);

function accountLimiter(scope: AccountScope): RateLimiterAbstract {
  let limiter = accountLimiters.get(scope);
  if (!limiter) {
    const e = env();
    limiter = createLimiter({
      keyPrefix: {
        account: "login_account",
        account_address: "login_account_address",
        device: "login_device",
      }[scope],
      points: {
        account: e.RATE_LIMIT_LOGIN_ACCOUNT_FAILURES,
        account_address: e.RATE_LIMIT_LOGIN_ACCOUNT_ADDRESS_FAILURES,
        device: e.RATE_LIMIT_LOGIN_DEVICE_FAILURES,
      }[scope],
      duration: ACCOUNT_FAILURES_KEPT_SECONDS,
      blockDuration: e.RATE_LIMIT_LOGIN_LOCK_SECONDS,
    });
    accountLimiters.set(scope, limiter);
  }
  return limiter;
}

/** A sign-in attempt counted against its account (see `countLoginAttempt`). */
export type LoginAttempt = {
  /** The password was right: the account's consecutive failures, and this address's on it, start over. */
  succeeded(): Promise<void>;
};

/**
 * Count a sign-in attempt against the account it names, before its password is checked, in two counters of
 * consecutive failures shared by every process and instance (rate-limiter-flexible's login protection, by
 * username and by username and IP): one per account from any address, one per account and client address.
 * Past RATE_LIMIT_LOGIN_ACCOUNT_FAILURES (20) or RATE_LIMIT_LOGIN_ACCOUNT_ADDRESS_FAILURES (5) the account, or
 * the account from that address, is refused for RATE_LIMIT_LOGIN_LOCK_SECONDS (429 `rate_limited`,
 * `Retry-After`), right password or not, so guesses spread over many addresses get no further than guesses
 * from one. Counting before the check, not after a failure, is what keeps parallel guesses within the count.
 *
 * `account` is what the caller typed (the email), whether or not an account has it: unknown emails are counted
 * and refused exactly like known ones, so the answers say nothing about which emails have accounts. It is
 * kept only as a keyed hash. A refusal by the address's own counter does not count against the account, so
 * one locked-out address cannot lock the owner out everywhere; a right password resets both counters.
 */
export async function countLoginAttempt(input: { account: string; address: string }): Promise<LoginAttempt> {
  const account = keyedHash(await pepper(), JSON.stringify(["login-account", input.account.toLowerCase()]));
  const accountAddress = `${account}:${addressSubject(input.address)}`;
  const perAddress = accountLimiter("account_address");
  const perAccount = accountLimiter("account");
  const locked = (refusal: RateLimiterRes) => {
    const seconds = Math.max(1, Math.ceil(refusal.msBeforeNext / 1000));
    return new AppError("rate_limited", accountLocked(seconds), { "retry-after": String(seconds) });
  };
  try {
    await perAddress.consume(accountAddress);
  } catch (err) {
    if (err instanceof RateLimiterRes) throw locked(err);
    throw storeUnavailable(err);
  }
  try {
    await perAccount.consume(account);
  } catch (err) {
    // Not judged: the address's count on the account gets its attempt back.
    await perAddress.reward(accountAddress, 1).catch(() => undefined);
    if (err instanceof RateLimiterRes) throw locked(err);
    throw storeUnavailable(err);
  }
  return {
    async succeeded() {
      try {
        await Promise.all([perAccount.delete(account), perAddress.delete(accountAddress)]);
      } catch (err) {
        // The sign-in stands; at worst the counts run on until they expire.
        log.warn("login failure count not reset", {
          error: err instanceof Error ? err.message : String(err),
        });
      }
    },
  };
}

/**
 * Count a sign-in attempt from a known browser against that browser (its device, lib/security/known-device.ts),
 * before its password is checked, in a counter of consecutive failures shared by every process and instance:
 * the attempt, or null once RATE_LIMIT_LOGIN_DEVICE_FAILURES have failed in a row (the device is locked out for
 * RATE_LIMIT_LOGIN_LOCK_SECONDS, and its browser is judged as an unknown one, by the account's own counters). A
 * right password starts its count over. `device` is the device's id, never the cookie itself.
 */
export async function countDeviceAttempt(device: string): Promise<LoginAttempt | null> {
  const key = keyedHash(await pepper(), JSON.stringify(["login-device", device]));
  const limiter = accountLimiter("device");
  try {
    await limiter.consume(key);
  } catch (err) {
    if (err instanceof RateLimiterRes) return null;
    throw storeUnavailable(err);
  }
  return {
    async succeeded() {
      try {
        await limiter.delete(key);
      } catch (err) {
        log.warn("device failure count not reset", {
          error: err instanceof Error ? err.message : String(err),
        });
      }
    },
  };
}
