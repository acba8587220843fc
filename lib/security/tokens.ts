import { createHash, createHmac, randomBytes, randomUUID, timingSafeEqual } from "node:crypto";

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/**
 * `length` characters drawn uniformly from an alphabet with a CSPRNG (rejection sampling, so no modulo bias).
 */
export function randomString(length: number, alphabet = BASE62): string {
  const limit = 256 - (256 % alphabet.length);
  let out = "";
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < limit) out += alphabet[byte % alphabet.length];
      if (out.length === length) break;
    }
  }
  return out;
}

/** Characters of base62 needed to carry `bits` bits of entropy. */
export function base62Length(bits: number): number {
  return Math.ceil(bits / Math.log2(62));
}

export function newId(): string {
  return randomUUID();
}

/** Keyed hash (HMAC-SHA256, hex) for secrets we must find again by value: secret keys and session tokens. */
export function keyedHash(pepper: string, value: string): string {
  return createHmac("sha256", pepper).update(value).digest("hex");
}

export function sha256Hex(value: string | Buffer): string {
  return createHash("sha256").update(value).digest("hex");
}

/** Constant-time equality of two hex digests (or any two strings of equal length). */
export function safeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}
