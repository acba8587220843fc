/**
 * Display helpers for what a checkout shows after its first screen: a transfer's account number and
 * countdown, a receipt's date and the way back to the merchant. Safe for the browser bundle (no imports); a
 * module apart from format.ts so the first screen's code carries none of them.
 */

/** "0123456789" → "012 345 6789", the way Nigerian banks print a NUBAN. */
export function formatAccountNumber(accountNumber: string): string {
  return /^\d{10}$/.test(accountNumber)
    ? `${accountNumber.slice(0, 3)} ${accountNumber.slice(3, 6)} ${accountNumber.slice(6)}`
    : accountNumber;
}

/** Seconds → "29:05" (or "1:02:03" past an hour). */
export function formatClock(totalSeconds: number): string {
  const s = Math.max(0, Math.floor(totalSeconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = String(s % 60).padStart(2, "0");
  return h > 0 ? `${h}:${String(m).padStart(2, "0")}:${sec}` : `${m}:${sec}`;
}

/** `one` and `other` forms of a unit ("{n} minute", "{n} minutes"), from a message catalogue. */
export type UnitWords = { one: string; other: string };

/** The same in words, for screen readers: "4 minutes 5 seconds", in the catalogue's words. */
export function clockInWords(
  totalSeconds: number,
  words: { minute: UnitWords; second: UnitWords } = {
    minute: { one: "{n} minute", other: "{n} minutes" },
    second: { one: "{n} second", other: "{n} seconds" },
  },
  locale = "en",
): string {
  const s = Math.max(0, Math.floor(totalSeconds));
  const m = Math.floor(s / 60);
  const sec = s % 60;
  const rules = new Intl.PluralRules(locale);
  const part = (n: number, unit: UnitWords) =>
    (rules.select(n) === "one" ? unit.one : unit.other).replace("{n}", String(n));
  if (m === 0) return part(sec, words.second);
  return sec === 0 ? part(m, words.minute) : `${part(m, words.minute)} ${part(sec, words.second)}`;
}

/**
 * "1 Jun 2025, 10:30 WAT": a date and time in `timeZone` (the browser's own when undefined). English and
 * French through Intl; the other languages with the catalogue's month names (browsers have no date data for
 * them) around Intl's numbers and zone name.
 */
export function formatDateTime(
  iso: string,
  locale: string,
  months: readonly string[],
  timeZone?: string,
): string {
  const date = new Date(iso);
  const options: Intl.DateTimeFormatOptions = {
    day: "numeric",
    month: "short",
    year: "numeric",
    hour: "2-digit",
    minute: "2-digit",
    timeZoneName: "short",
    ...(timeZone && { timeZone }),
  };
  if (locale === "en" || locale === "fr") return new Intl.DateTimeFormat(locale, options).format(date);
  const parts = new Intl.DateTimeFormat("en-GB", { ...options, month: "numeric", hourCycle: "h23" })
    .formatToParts(date)
    .reduce<Record<string, string>>((all, p) => Object.assign(all, { [p.type]: p.value }), {});
  const month = months[Number(parts.month) - 1] ?? parts.month;
  // en-GB pads a numeric day ("01") when the month is numeric too.
  return `${Number(parts.day)} ${month} ${parts.year}, ${parts.hour}:${parts.minute} ${parts.timeZoneName ?? ""}`.trim();
}

/**
 * The callback address of docs/checkout.md: the merchant's `callbackUrl` with `status`, `reference`, `amount` and
 * `currency` set (any query the merchant put there is kept). Only http(s) addresses are followed.
 */
export function callbackHref(
  callbackUrl: string,
  result: { status: string; reference: string; amount: string; currency: string },
): string | null {
  let url: URL;
  try {
    url = new URL(callbackUrl);
  } catch {
    return null;
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") return null;
  url.searchParams.set("status", result.status);
  url.searchParams.set("reference", result.reference);
  url.searchParams.set("amount", result.amount);
  url.searchParams.set("currency", result.currency);
  return url.toString();
}
