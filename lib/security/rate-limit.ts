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
const MAX_BUCKETS = 100_000;

function take(key: string, policy: Policy, now: number): { allowed: boolean; retryAfterSeconds: number } {
  let bucket = buckets.get(key);
  if (!bucket) {
    if (buckets.size >= MAX_BUCKETS) sweep(now);
    bucket = { tokens: policy.burst, updatedAt: now };
    buckets.set(key, bucket);
  }
  bucket.tokens = Math.min(policy.burst, bucket.tokens + (now - bucket.updatedAt) * policy.refillPerMs);
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

/** Drop buckets that have refilled completely: they carry no information. */
function sweep(now: number) {
  for (const [key, bucket] of buckets) {
    if (now - bucket.updatedAt > 10 * 60_000) buckets.delete(key);
  }
  if (buckets.size >= MAX_BUCKETS) buckets.clear();
}

export type Limiter = "login" | "access_code" | "secret_key";

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
  }
}

const MESSAGES: Record<Limiter, string> = {
  login: "Too many failed sign-in attempts from this address; wait before trying again.",
  access_code: "Too many requests with unknown access codes from this address; wait before trying again.",
  secret_key: "Too many requests with this secret key; slow down and retry after the Retry-After interval.",
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

/**
 * Spend one token of a failed-attempt limiter before the work that decides whether the attempt failed, and
 * get back a function that returns it when the attempt turns out good. Spending first is what makes the
 * limit hold under parallel requests: checking without spending let any number of concurrent guesses past
 * the check before the first failure was counted. Throws 429 `rate_limited` when nothing is left.
 */
export function reserve(limiter: Limiter, subject: string, now = Date.now()): () => void {
  consume(limiter, subject, now);
  let refunded = false;
  return () => {
    if (refunded) return;
    refunded = true;
    const bucket = buckets.get(`${limiter}:${subject}`);
    if (bucket) bucket.tokens = Math.min(policy(limiter).burst, bucket.tokens + 1);
  };
}
