/** An email as customers are told apart by it: trimmed and in lower case (one customer per email, any casing). */
export function emailKey(email: string): string {
  return email.trim().toLowerCase();
}
