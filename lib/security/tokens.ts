import { createHash, createHmac, randomBytes, randomUUID, timingSafeEqual } from "node:crypto";

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/**
 * `length` characters drawn uniformly from an alphabet with a CSPRNG (rejection sampling, so no modulo bias).
 */
export function randomString(length: number, alphabet = BASE62): string {
  const limit = 256 - (256 % alphabet.length);
  let out = "";
  while (out.length < length) {
    const byte = nextRandomByte();
    if (byte < limit) out += alphabet[byte % alphabet.length];
  }
  return out;
}

// CSPRNG bytes drawn 4 KiB at a time: one randomBytes call per many tokens instead of one per token.
// Each byte is used once and the pool lives only in this process's memory.
const POOL_SIZE = 4096;
let pool = Buffer.alloc(0);
let poolOffset = 0;

function nextRandomByte(): number {
  if (poolOffset >= pool.length) {
    pool = randomBytes(POOL_SIZE);
    poolOffset = 0;
  }
  const byte = pool[poolOffset] as number;
  pool[poolOffset] = 0;
  poolOffset += 1;
  return byte;
}

/** Characters of base62 needed to carry `bits` bits of entropy. */
export function base62Length(bits: number): number {
  return Math.ceil(bits / Math.log2(62));
}

/** The id of one request, in every answer's `x-request-id` and its log line: `req_` + 20 base62 characters. */
export function newRequestId(): string {
  return `req_${randomString(20)}`;
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
