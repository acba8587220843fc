import { base62Length, randomString } from "@/lib/security/tokens";

const UPPER_ALNUM = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ";

/** `PAY_TXN_` + 20 characters of [0-9A-Z] (103 bits): unguessable and easy to read out on a support call. */
export function newReference(): string {
  return `PAY_TXN_${randomString(20, UPPER_ALNUM)}`;
}

/** An access code: 160 bits from the CSPRNG in base62 (docs/api.md "Security"). */
export function newAccessCode(): string {
  return randomString(base62Length(160));
}
