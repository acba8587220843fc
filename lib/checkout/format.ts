/**
 * Display helpers for the checkout pages, safe for the browser bundle (no imports). Amounts stay decimal
 * strings: grouping is done on the text, never through a float.
 */

/** "5075.5" → "5,075.5"; "5075.00" with "NGN" → "NGN 5,075.00". */
export function formatMoney(amount: string, currency: string): string {
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

/** The same in words, for screen readers: "4 minutes 5 seconds". */
export function clockInWords(totalSeconds: number): string {
  const s = Math.max(0, Math.floor(totalSeconds));
  const m = Math.floor(s / 60);
  const sec = s % 60;
  const part = (n: number, unit: string) => `${n} ${unit}${n === 1 ? "" : "s"}`;
  if (m === 0) return part(sec, "second");
  return sec === 0 ? part(m, "minute") : `${part(m, "minute")} ${part(sec, "second")}`;
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
