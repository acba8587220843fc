/** The card scheme from the number's leading digits (for display; routing is the rail's business). */
export function cardBrand(number: string): string {
  if (/^4/.test(number)) return "visa";
  if (/^(506[01]|507[89]|6500)/.test(number)) return "verve";
  if (/^(5[1-5]|222[1-9]|22[3-9]|2[3-6]|27[01]|2720)/.test(number)) return "mastercard";
  if (/^3[47]/.test(number)) return "amex";
  return "unknown";
}
