import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";

/**
 * Data we must be able to read back but a copy of the database alone must not reveal (webhook signing
 * secrets, stored idempotent answers, which can hold a rolled secret key) is sealed with AES-256-GCM under a
 * key derived from the pepper (APP_SECRET).
 * - `purpose` selects the derived key (HKDF info), so one kind of sealed value never opens as another;
 *   `webhook-secret` is the default, the key webhook secrets have always been sealed with.
 * - `context` is authenticated but not stored (GCM additional data): a value sealed for one row does not open
 *   when copied to another whose context differs.
 * Format: `v1.<iv>.<tag>.<ciphertext>`, base64url parts.
 */
export type SealOptions = { purpose?: string; context?: string };

const keys = new Map<string, Buffer>();

function key(pepper: string, purpose: string): Buffer {
  const id = `${purpose}\u0000${pepper}`;
  let derived = keys.get(id);
  if (!derived) {
    derived = Buffer.from(hkdfSync("sha256", pepper, "paygate-seal", purpose, 32));
    keys.set(id, derived);
  }
  return derived;
}

export function seal(pepper: string, plaintext: string, options: SealOptions = {}): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key(pepper, options.purpose ?? "webhook-secret"), iv);
  if (options.context !== undefined) cipher.setAAD(Buffer.from(options.context, "utf8"));
  const body = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
  return [
    "v1",
    iv.toString("base64url"),
    cipher.getAuthTag().toString("base64url"),
    body.toString("base64url"),
  ].join(".");
}

/** The plaintext of `seal`'s output; throws when the value is not sealed or was sealed otherwise. */
export function unseal(pepper: string, sealed: string, options: SealOptions = {}): string {
  const [version, iv, tag, body] = sealed.split(".");
  if (version !== "v1" || !iv || !tag || !body) throw new Error("not a sealed value");
  const decipher = createDecipheriv(
    "aes-256-gcm",
    key(pepper, options.purpose ?? "webhook-secret"),
    Buffer.from(iv, "base64url"),
  );
  if (options.context !== undefined) decipher.setAAD(Buffer.from(options.context, "utf8"));
  decipher.setAuthTag(Buffer.from(tag, "base64url"));
  return Buffer.concat([decipher.update(Buffer.from(body, "base64url")), decipher.final()]).toString("utf8");
}
