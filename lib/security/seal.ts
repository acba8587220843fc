import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";

/**
 * Secrets we must be able to read back (webhook signing secrets) are sealed with AES-256-GCM under a key
 * derived from the pepper (APP_SECRET), so a copy of the database alone does not reveal them.
 * Format: `v1.<iv>.<tag>.<ciphertext>`, base64url parts.
 */
function key(pepper: string): Buffer {
  return Buffer.from(hkdfSync("sha256", pepper, "paygate-seal", "webhook-secret", 32));
}

export function seal(pepper: string, plaintext: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key(pepper), iv);
  const body = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
  return [
    "v1",
    iv.toString("base64url"),
    cipher.getAuthTag().toString("base64url"),
    body.toString("base64url"),
  ].join(".");
}

export function unseal(pepper: string, sealed: string): string {
  const [version, iv, tag, body] = sealed.split(".");
  if (version !== "v1" || !iv || !tag || !body) throw new Error("not a sealed value");
  const decipher = createDecipheriv("aes-256-gcm", key(pepper), Buffer.from(iv, "base64url"));
  decipher.setAuthTag(Buffer.from(tag, "base64url"));
  return Buffer.concat([decipher.update(Buffer.from(body, "base64url")), decipher.final()]).toString("utf8");
}
