/**
 * A plan's billing periods, in calendar units in UTC from the subscription's start (docs/guides/subscriptions.md):
 * period k starts k intervals after the start, computed from the start each time, never from the period before,
 * so a start on the 31st renews on the last day of shorter months and on the 31st again after them (31 Jan →
 * 28 Feb → 31 Mar), and 29 February renews on 28 February in other years. The time of day is the start's.
 */
export const INTERVALS = ["daily", "weekly", "monthly", "quarterly", "biannually", "annually"] as const;

export type Interval = (typeof INTERVALS)[number];

const DAY_MS = 86_400_000;

/** Calendar months per interval (0: counted in days). */
const MONTHS: Record<Interval, number> = {
  daily: 0,
  weekly: 0,
  monthly: 1,
  quarterly: 3,
  biannually: 6,
  annually: 12,
};

const DAYS: Record<Interval, number> = {
  daily: 1,
  weekly: 7,
  monthly: 0,
  quarterly: 0,
  biannually: 0,
  annually: 0,
};

/** Days in a month of a year (UTC; `month` 0-11). */
function daysIn(year: number, month: number): number {
  return new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
}

/** The start of period `index` (0 = the first) of a subscription that started at `startAt` (unix ms). */
export function periodStart(startAt: number, interval: Interval, index: number): number {
  const months = MONTHS[interval];
  if (months === 0) return startAt + index * DAYS[interval] * DAY_MS;
  const start = new Date(startAt);
  const total = start.getUTCMonth() + index * months;
  const year = start.getUTCFullYear() + Math.floor(total / 12);
  const month = ((total % 12) + 12) % 12;
  const day = Math.min(start.getUTCDate(), daysIn(year, month));
  return Date.UTC(
    year,
    month,
    day,
    start.getUTCHours(),
    start.getUTCMinutes(),
    start.getUTCSeconds(),
    start.getUTCMilliseconds(),
  );
}

/** Period `index` as [start, end): its end is the next period's start. */
export function period(startAt: number, interval: Interval, index: number): { start: number; end: number } {
  return { start: periodStart(startAt, interval, index), end: periodStart(startAt, interval, index + 1) };
}

/** "every month", for the words: the interval's unit. */
export function isInterval(value: string): value is Interval {
  return (INTERVALS as readonly string[]).includes(value);
}
