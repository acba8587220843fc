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
