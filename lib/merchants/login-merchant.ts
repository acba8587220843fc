import { AppError } from "@/lib/core/errors";
import { db } from "@/lib/db/client";
import { issueDeviceCookie, knownDevice, userAccount } from "@/lib/security/known-device";
import { decoyPasswordHash, verifyPassword } from "@/lib/security/password";
import { pepper } from "@/lib/security/pepper";
import { countLoginAttempt, reserve } from "@/lib/security/rate-limit";
import { signInMembership } from "./memberships";
import { answerChallenge, startChallenge } from "./two-factor";

/**
 * Exchange email and password for a session token. Every attempt spends a token of the client address's login
 * budget up front (429 once spent) and a successful one gets it back, so only failures count, yet parallel
 * guesses cannot all slip past before the first failure is counted.
 *
 * An attempt from a browser that signed in to this user before (its device cookie, `deviceCookie`:
 * lib/security/known-device.ts) is counted against that device alone: guesses at the email from elsewhere,
 * however many, never lock its owner out of it, and a stolen cookie gets RATE_LIMIT_LOGIN_DEVICE_FAILURES
 * guesses before it counts as unknown. Any other attempt is counted against the account it names, from any
 * address and from this one (`countLoginAttempt`): guesses spread over many addresses lock the account for a
 * while for browsers it does not know, and a right password from one starts the counts over. An unknown email
 * is counted, refused and timed like a known one. A known device skips nothing: the password is checked, and
 * so is the second factor where the user has one (lib/merchants/two-factor.ts).
 *
 * The session is of one of the user's merchants: `merchantId` when given and the user belongs to it, else the
 * one they signed in to last. A successful sign-in answers a device cookie (`device`) to set.
 */
export async function loginMerchant(input: {
  email: string;
  password: string;
  clientAddress: string;
  deviceCookie?: string | null;
  merchantId?: string;
}) {
  const permit = await reserve("login", input.clientAddress);
  try {
    const user = await db()
      .selectFrom("users")
      .select(["id", "email", "password_hash", "totp_enabled_at"])
      .where("email", "=", input.email)
      .executeTakeFirst();
    const account = user ? userAccount(user.id) : null;
    const device = account ? await knownDevice(input.deviceCookie, account) : null;
    const attempt =
      device ?? (await countLoginAttempt({ account: input.email, address: input.clientAddress }));
    const valid = await verifyPassword(input.password, user?.password_hash ?? (await decoyPasswordHash()));
    if (!user || !account || !valid) {
      throw new AppError("invalid_credentials", "The email or password is incorrect.");
    }
    permit.refund();
    // The right password resets the counts (a known device keeps its bypass of the account's lock), but with
    // two-factor sign-in on, a session needs the code too, from any browser.
    await attempt.succeeded();
    if (user.totp_enabled_at !== null)
      return startChallenge({ userId: user.id, merchantId: input.merchantId, deviceId: device?.id ?? null });
    const signedIn = await signInMembership({
      userId: user.id,
      merchantId: input.merchantId,
      peppered: await pepper(),
    });
    return { ...signedIn, device: await issueDeviceCookie(account, device) };
  } finally {
    await permit.settle();
  }
}

/** The second step of a sign-in with two-factor sign-in on: the challenge and a code (or a recovery code). */
export async function loginTwoFactor(input: { challenge: string; code?: string; recoveryCode?: string }) {
  const { userId, merchantId, deviceId } = await answerChallenge(input);
  const signedIn = await signInMembership({ userId, merchantId, peppered: await pepper() });
  return {
    ...signedIn,
    device: await issueDeviceCookie(
      userAccount(userId),
      deviceId ? { id: deviceId, succeeded: async () => {} } : null,
    ),
  };
}
