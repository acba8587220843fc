import { env } from "@/lib/env";

/**
 * When the next attempt is due after attempt `attempt` (1-based) failed, or null when the schedule is spent.
 * The Standard Webhooks schedule (5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h, 24 h; overridable with
 * WEBHOOK_RETRY_SCHEDULE) with ±10% jitter; a receiver's `Retry-After` (on 429/503) replaces the delay when
 * it asks for longer, capped at a day.
 */
export function nextAttemptDelayMs(
  attempt: number,
  retryAfterMs: number | null,
  random = Math.random,
): number | null {
  const schedule = env().WEBHOOK_RETRY_SCHEDULE;
  const base = schedule[attempt - 1];
  if (base === undefined) return null;
  const jittered = Math.round(base * 1000 * (0.9 + 0.2 * random()));
  if (retryAfterMs !== null && retryAfterMs > jittered) return Math.min(retryAfterMs, 86_400_000);
  return jittered;
}

export function maxAttempts(): number {
  return env().WEBHOOK_RETRY_SCHEDULE.length + 1;
}

/** `Retry-After` as milliseconds: delta-seconds or an HTTP date. */
export function parseRetryAfter(value: string | undefined, now = Date.now()): number | null {
  if (!value) return null;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}
