import { AppError } from "@/lib/core/errors";
import { db } from "@/lib/db/client";
import { issueDeviceCookie, knownDevice, merchantAccount } from "@/lib/security/known-device";
import { decoyPasswordHash, verifyPassword } from "@/lib/security/password";
import { pepper } from "@/lib/security/pepper";
import { countLoginAttempt, reserve } from "@/lib/security/rate-limit";
import { issueSession } from "./credentials";
import { presentMerchant } from "./present";

/**
 * Exchange email and password for a session token. Every attempt spends a token of the client address's login
 * budget up front (429 once spent) and a successful one gets it back, so only failures count, yet parallel
 * guesses cannot all slip past before the first failure is counted.
 *
 * An attempt from a browser that signed in to this account before (its device cookie, `deviceCookie`:
 * lib/security/known-device.ts) is counted against that device alone: guesses at the email from elsewhere,
 * however many, never lock its owner out of it, and a stolen cookie gets RATE_LIMIT_LOGIN_DEVICE_FAILURES
 * guesses before it counts as unknown. Any other attempt is counted against the account it names, from any
 * address and from this one (`countLoginAttempt`): guesses spread over many addresses lock the account for a
 * while for browsers it does not know, and a right password from one starts the counts over. An unknown email
 * is counted, refused and timed like a known one. A successful sign-in answers a device cookie (`device`) to
 * set, for the device it came from or a new one.
 */
export async function loginMerchant(input: {
  email: string;
  password: string;
  clientAddress: string;
  deviceCookie?: string | null;
}) {
  const permit = await reserve("login", input.clientAddress);
  try {
    const merchant = await db()
      .selectFrom("merchants")
      .select(["id", "business_name", "email", "password_hash"])
      .where("email", "=", input.email)
      .executeTakeFirst();
    const account = merchant ? merchantAccount(merchant.id) : null;
    const device = account ? await knownDevice(input.deviceCookie, account) : null;
    const attempt =
      device ?? (await countLoginAttempt({ account: input.email, address: input.clientAddress }));
    const valid = await verifyPassword(
      input.password,
      merchant?.password_hash ?? (await decoyPasswordHash()),
    );
    if (!merchant || !account || !valid) {
      throw new AppError("invalid_credentials", "The email or password is incorrect.");
    }
    permit.refund();
    await attempt.succeeded();
    const peppered = await pepper();
    const session = await db()
      .transaction()
      .execute((trx) => issueSession(trx, merchant.id, Date.now(), peppered));
    return {
      merchant: presentMerchant(merchant),
      ...session,
      device: await issueDeviceCookie(account, device),
    };
  } finally {
    await permit.settle();
  }
}
