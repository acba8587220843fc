const DAY = new Intl.DateTimeFormat("en-GB", {
  day: "numeric",
  month: "short",
  year: "numeric",
  timeZone: "UTC",
});

/** "1 Dec 2026 – 1 Jan 2027": a period in words (UTC), for a payment's description. */
export function formatPeriod(start: number, end: number): string {
  return `${DAY.format(start)} – ${DAY.format(end)}`;
}
