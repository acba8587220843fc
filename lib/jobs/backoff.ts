/**
 * The wait before the next try after `attempt` consecutive failures (1 = the first failure): doubling from
 * `baseMs`, never more than `maxMs`. Integer milliseconds.
 */
export function backoffMs(attempt: number, baseMs: number, maxMs: number): number {
  const exponent = Math.min(Math.max(attempt, 1) - 1, 30);
  return Math.min(maxMs, baseMs * 2 ** exponent);
}
