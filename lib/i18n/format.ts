/**
 * Display helpers for the checkout pages, safe for the browser bundle (no imports). Amounts stay decimal
 * strings: grouping is done on the text, never through a float.
 */

/**
 * "5075.00" with "NGN" → "NGN 5,075.00" (English, grouped on the text), "5 075,00 NGN" in French: other
 * languages through Intl, which formats a decimal string exactly (no float) with the currency's own minor
 * digits (XOF none). Yoruba, Hausa, Igbo and Pidgin use Nigerian English conventions: browsers ship no
 * number data for them, and the server's and the browser's text must agree.
 */
export function formatMoney(amount: string, currency: string, locale = "en"): string {
  if (locale !== "en") {
    try {
      return new Intl.NumberFormat(locale === "fr" ? "fr" : "en-NG", {
        style: "currency",
        currency,
        currencyDisplay: "code",
      }).format(amount as Intl.StringNumericLiteral);
    } catch {
      // An unknown currency code: the English text below.
    }
  }
  const [whole = "0", fraction] = amount.split(".");
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  return `${currency} ${fraction === undefined ? grouped : `${grouped}.${fraction}`}`;
}

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

/**
 * `total − amount` of two decimal strings, in the larger of their decimals: the fee a customer pays on top of
 * the price ("5175.00", "5000.00" → "175.00"). Exact (integers), never below zero.
 */
export function amountDifference(total: string, amount: string): string {
  const digits = Math.max(total.split(".")[1]?.length ?? 0, amount.split(".")[1]?.length ?? 0);
  const units = (value: string) => {
    const [whole = "0", fraction = ""] = value.split(".");
    return BigInt(whole + fraction.padEnd(digits, "0"));
  };
  const diff = units(total) - units(amount);
  const abs = (diff < 0n ? 0n : diff).toString().padStart(digits + 1, "0");
  return digits === 0 ? abs : `${abs.slice(0, -digits)}.${abs.slice(-digits)}`;
}

/** Whether a decimal string is zero ("0", "0.00"). */
export function isZeroAmount(amount: string): boolean {
  return /^0+(\.0+)?$/.test(amount);
}

/** The channel's name as a customer reads it ("bank_transfer" → "Bank transfer"). */
export const CHANNEL_NAMES: Record<string, string> = {
  card: "Card",
  bank_transfer: "Bank transfer",
  bank_payment: "Bank payment",
  ussd: "USSD",
};
