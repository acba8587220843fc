import { CURRENCIES, type Currency, maxAmountMinor, minorPerMajor } from "./currencies";

/**
 * Major-unit decimal strings <-> integer minor units. Strings are parsed digit by digit into a bigint;
 * no float is ever involved.
 */
export type AmountParseResult =
  | { ok: true; minor: bigint }
  | {
      ok: false;
      /** What is wrong, as a stable code a form words in its own language. */
      rule: "invalid_format" | "too_many_decimals" | "not_positive" | "too_big";
      /** The same in English, after the field's name: "amount must be greater than zero". */
      reason: string;
    };

const DECIMAL = /^(0|[1-9][0-9]*)(?:\.([0-9]+))?$/;

/**
 * Parse a positive major-unit amount string such as "5000", "5000.5" or "5000.50".
 * Refuses signs, exponents, spaces, leading zeros, more decimals than the currency has, zero and
 * anything above the per-transaction maximum.
 */
export function parseAmount(input: string, currency: Currency): AmountParseResult {
  const digits = CURRENCIES[currency].minorDigits;
  const match = DECIMAL.exec(input);
  if (!match) {
    return {
      ok: false,
      rule: "invalid_format",
      reason:
        digits > 0
          ? `must be a decimal string in major units such as "5000" or "5000.50" (no sign, exponent or separators)`
          : `must be a whole number string such as "5000" (no sign, exponent or separators)`,
    };
  }
  const whole = match[1] ?? "0";
  const fraction = match[2] ?? "";
  if (fraction.length > digits) {
    return {
      ok: false,
      rule: "too_many_decimals",
      reason:
        digits === 0
          ? `must have no decimals for ${currency}`
          : `must have at most ${digits} decimals for ${currency}`,
    };
  }
  // Bound the length before building a bigint so a 60 KiB digit string costs nothing.
  if (whole.length > 12) return { ok: false, rule: "too_big", reason: tooLarge(currency) };
  const minor = BigInt(whole) * minorPerMajor(currency) + BigInt(fraction.padEnd(digits, "0") || "0");
  if (minor <= 0n) return { ok: false, rule: "not_positive", reason: "must be greater than zero" };
  if (minor > maxAmountMinor(currency)) return { ok: false, rule: "too_big", reason: tooLarge(currency) };
  return { ok: true, minor };
}

function tooLarge(currency: Currency): string {
  return `must not exceed ${formatAmount(maxAmountMinor(currency), currency)} ${currency}`;
}

/** Format minor units as a major-unit string with exactly the currency's minor digits: 500050n → "5000.50". */
export function formatAmount(minor: bigint, currency: Currency): string {
  const digits = CURRENCIES[currency].minorDigits;
  const negative = minor < 0n;
  const abs = negative ? -minor : minor;
  const unit = minorPerMajor(currency);
  const whole = (abs / unit).toString();
  const sign = negative ? "-" : "";
  if (digits === 0) return `${sign}${whole}`;
  const fraction = (abs % unit).toString().padStart(digits, "0");
  return `${sign}${whole}.${fraction}`;
}

/**
 * `numerator / denominator` rounded half up (away from zero for the positive values money takes here).
 * The one rounding rule of the fee schedule.
 */
export function divideRoundHalfUp(numerator: bigint, denominator: bigint): bigint {
  if (denominator <= 0n) throw new RangeError("denominator must be positive");
  if (numerator < 0n) return -divideRoundHalfUp(-numerator, denominator);
  return (numerator * 2n + denominator) / (denominator * 2n);
}
