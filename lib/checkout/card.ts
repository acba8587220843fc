import { cardBrand, luhnValid } from "@/lib/channels/card-brand";
import type { CheckoutMessages } from "@/lib/i18n/messages/en";

/** A card field's mistake, named by its key in the catalogues (`checkout.card.fieldErrors`). */
export type CardFieldError = keyof CheckoutMessages["card"]["fieldErrors"];

/**
 * Card-form rules for the browser, the same the API applies (lib/channels/schemas.ts CardBody): Luhn,
 * 12-19 digits, an expiry not in the past, a 3-4 digit CVV. Kept free of zod: it ships to the browser.
 */

export type Brand = "visa" | "mastercard" | "verve" | "amex" | "unknown";

export const BRAND_LABEL: Record<Brand, string> = {
  visa: "Visa",
  mastercard: "Mastercard",
  verve: "Verve",
  amex: "American Express",
  unknown: "",
};

export function brandOf(digits: string): Brand {
  return cardBrand(digits) as Brand;
}

export const digitsOf = (value: string) => value.replace(/\D/g, "");

/** Groups as printed on the card: 4-6-5 for American Express, fours otherwise. */
export function formatCardNumber(value: string): string {
  const digits = digitsOf(value).slice(0, 19);
  if (brandOf(digits) === "amex") {
    return [digits.slice(0, 4), digits.slice(4, 10), digits.slice(10, 15)].filter(Boolean).join(" ");
  }
  return digits.replace(/(\d{4})(?=\d)/g, "$1 ");
}

/** "1" → "1", "12" → "12", "123" → "12/3", "4" stays "4" until a second digit comes. */
export function formatExpiry(value: string): string {
  let digits = digitsOf(value).slice(0, 4);
  // A first digit above 1 can only be a one-digit month: "5" means 05.
  if (/^[2-9]$/.test(digits)) digits = `0${digits}`;
  return digits.length > 2 ? `${digits.slice(0, 2)}/${digits.slice(2)}` : digits;
}

export function cardNumberError(value: string): CardFieldError | null {
  const digits = digitsOf(value);
  if (digits.length === 0) return "numberEmpty";
  if (digits.length < 12 || !luhnValid(digits)) return "numberInvalid";
  return null;
}

export function parseExpiry(value: string): { month: number; year: number } | null {
  const match = /^(\d{2})\/?(\d{2})$/.exec(value.replace(/\s/g, ""));
  if (!match) return null;
  const month = Number(match[1]);
  if (month < 1 || month > 12) return null;
  return { month, year: 2000 + Number(match[2]) };
}

export function expiryError(value: string, now = new Date()): CardFieldError | null {
  if (value.trim() === "") return "expiryEmpty";
  const expiry = parseExpiry(value);
  if (!expiry) return "expiryFormat";
  // Valid through the last day of the expiry month (the API compares in UTC the same way).
  if (expiry.year * 12 + expiry.month - 1 < now.getUTCFullYear() * 12 + now.getUTCMonth())
    return "expiryPast";
  if (expiry.year > now.getUTCFullYear() + 25) return "expiryYear";
  return null;
}

export function cvvError(value: string, brand: Brand): CardFieldError | null {
  if (value === "") return "cvvEmpty";
  if (!/^\d{3,4}$/.test(value)) return "cvvFormat";
  if (brand === "amex" && value.length !== 4) return "cvvAmex";
  return null;
}
