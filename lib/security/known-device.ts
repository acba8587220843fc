import { pepper } from "./pepper";
import { countDeviceAttempt, type LoginAttempt } from "./rate-limit";
import { keyedHash, randomString, safeEqual } from "./tokens";

/**
 * Known devices: OWASP's device cookies ("Slow Down Online Guessing Attacks with Device Cookies",
 * docs/decisions/024-device-cookies.md). A browser (or an API client keeping cookies) that signed in to an
 * account gets a cookie naming a device of that account, signed with the pepper; when the account is locked
 * because passwords are being guessed at it from elsewhere, a right password from a known device still signs
 * in. Each device has its own lockout: RATE_LIMIT_LOGIN_DEVICE_FAILURES consecutive wrong passwords with one
 * cookie lock that cookie out, and its browser is then judged as an unknown one; so a stolen cookie cannot be
 * used to guess for ever.
 *
 * An account here is any string naming who signs in (`userAccount(id)`, a user of the console): the cookie is
 * bound to it, and a cookie of one account is unknown on every other. Nothing is
 * stored per device but its failure count (in the rate-limit store, shared by every instance), so a cookie
 * cannot be revoked before it expires; it carries no secret of the account and no email.
 *
 * Cookie: `d1.<device id>.<issued, unix seconds>.<HMAC-SHA256 of account, id and time under the pepper>`.
 */
export const DEVICE_COOKIE = "paygate_device";
/** How long a device stays known after its last sign-in (each sign-in from it issues its cookie again). */
export const DEVICE_COOKIE_SECONDS = 180 * 24 * 3600;

const FORMAT = /^d1\.([0-9A-Za-z]{22})\.(\d{1,12})\.([0-9a-f]{64})$/;

/**
 * The account key of a user. It reads `merchant:` because a merchant's one login became a user with the
 * merchant's id (migration 0035): the cookies its browsers were given before stay known.
 */
export function userAccount(userId: string): string {
  return `merchant:${userId}`;
}

async function signature(account: string, device: string, issuedAt: number): Promise<string> {
  return keyedHash(await pepper(), JSON.stringify(["device-cookie", 1, account, device, issuedAt]));
}

export type DeviceCookie = { value: string; maxAgeSeconds: number };

/**
 * The cookie to set after a successful sign-in to `account`: for the same device when the sign-in came from a
 * known one (`device`), else for a new one.
 */
export async function issueDeviceCookie(
  account: string,
  device?: KnownDevice | null,
  now = Date.now(),
): Promise<DeviceCookie> {
  const id = device?.id ?? randomString(22);
  const issuedAt = Math.floor(now / 1000);
  return {
    value: `d1.${id}.${issuedAt}.${await signature(account, id, issuedAt)}`,
    maxAgeSeconds: DEVICE_COOKIE_SECONDS,
  };
}

/** A device this account knows, whose sign-in attempt is counted against it (consecutive failures). */
export type KnownDevice = LoginAttempt & { id: string };

/**
 * Whether `cookie` names a device known to `account`: issued to this very account, signed by this service,
 * not expired, and not locked out. The attempt is counted against the device before the password is
 * checked (so parallel guesses stay within the count); a right password calls `succeeded()`. Null for no
 * cookie, a malformed, forged, expired or other account's cookie, or a locked-out device: the sign-in is
 * then an unknown browser's, judged by the account's own limits.
 */
export async function knownDevice(
  cookie: string | null | undefined,
  account: string,
  now = Date.now(),
): Promise<KnownDevice | null> {
  const parts = cookie ? FORMAT.exec(cookie) : null;
  if (!parts) return null;
  const [, id, issued, mac] = parts as unknown as [string, string, string, string];
  const issuedAt = Number(issued);
  const age = Math.floor(now / 1000) - issuedAt;
  if (age < -60 || age > DEVICE_COOKIE_SECONDS) return null;
  if (!safeEqual(mac, await signature(account, id, issuedAt))) return null;
  const attempt = await countDeviceAttempt(id);
  return attempt ? { id, succeeded: () => attempt.succeeded() } : null;
}

/** The device cookie of a Cookie header, if it has one. */
export function deviceCookieOf(cookieHeader: string | null | undefined): string | null {
  for (const part of (cookieHeader ?? "").split(";")) {
    const [name, ...value] = part.trim().split("=");
    if (name === DEVICE_COOKIE) return value.join("=") || null;
  }
  return null;
}
