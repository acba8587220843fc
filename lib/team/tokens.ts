import { keyedHash, randomString } from "@/lib/security/tokens";

/**
 * The tokens of an account's emailed links (invitations, password resets, email confirmation):
 * `<prefix>_` + 43 base62 characters (256 bits) drawn by the CSPRNG, stored only as their keyed hash (HMAC
 * with the pepper), so a copy of the database opens none of them.
 */
export const LINK_TOKEN = /^(inv|pwr|eml)_[0-9A-Za-z]{43}$/;

export function newLinkToken(prefix: "inv" | "pwr" | "eml"): string {
  return `${prefix}_${randomString(43)}`;
}

export function linkTokenHash(peppered: string, token: string): string {
  return keyedHash(peppered, `link-token:${token}`);
}
