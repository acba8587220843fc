/**
 * Card-number facts shared by the API (lib/channels/schemas.ts) and the browser form (lib/checkout/card.ts);
 * free of imports, so it ships to the browser cheaply.
 */

/** The card scheme from the number's leading digits (for display; routing is the rail's business). */
export function cardBrand(number: string): string {
  if (/^4/.test(number)) return "visa";
  if (/^(506[01]|507[89]|6500)/.test(number)) return "verve";
  if (/^(5[1-5]|222[1-9]|22[3-9]|2[3-6]|27[01]|2720)/.test(number)) return "mastercard";
  if (/^3[47]/.test(number)) return "amex";
  return "unknown";
}

/** The Luhn checksum every card number carries. */
export function luhnValid(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}
