import { AppError } from "@/lib/core/errors";
import { db } from "@/lib/db/client";
import { isUniqueViolation } from "@/lib/db/errors";
import { env } from "@/lib/env";
import { CHANNELS, serializeChannels } from "@/lib/payments/channel-list";
import { sendAccountMail } from "@/lib/receipts/account-mail";
import { issueDeviceCookie, userAccount } from "@/lib/security/known-device";
import { hashPassword } from "@/lib/security/password";
import { pepper } from "@/lib/security/pepper";
import { addressSubject, consume } from "@/lib/security/rate-limit";
import { newId, randomString } from "@/lib/security/tokens";
import { issueSecretKey, issueSession } from "./credentials";
import { presentMerchant } from "./present";

/**
 * Create a merchant with every channel enabled, the customer bearing fees, one test and one live secret key
 * (shown once, here), its first user as its owner, a signed-in session of that owner, and a device cookie
 * naming the browser that signed up (lib/security/known-device.ts).
 *
 * A signup from the network spends a token of its client address's signup budget before anything else (429
 * `rate_limited` once spent): each one costs a scrypt and an account, so neither may be had at full speed. A
 * taken email is answered like a new one, and its owner is emailed instead (`decoySignup`). `clientAddress: null` is a signup that did
 * not come over the network (the demo merchant at boot, benchmarks, tests).
 */
export async function signupMerchant(input: {
  businessName: string;
  email: string;
  password: string;
  clientAddress: string | null;
}) {
  if (input.clientAddress !== null) await consume("signup", addressSubject(input.clientAddress));
  const passwordHash = await hashPassword(input.password);
  const now = Date.now();
  const id = newId();
  const userId = newId();
  const membershipId = newId();
  const peppered = await pepper();
  try {
    return await db()
      .transaction()
      .execute(async (trx) => {
        await trx
          .insertInto("merchants")
          .values({
            id,
            business_name: input.businessName,
            email: input.email,
            // The password is the user's (`users`); the merchant's column is kept empty since migration 0035.
            password_hash: "",
            channels: serializeChannels(CHANNELS),
            merchant_bears_cost: 0,
            brand_color: null,
            logo_url: null,
            created_at: now,
            updated_at: now,
          })
          .execute();
        await trx
          .insertInto("users")
          .values({
            id: userId,
            email: input.email,
            password_hash: passwordHash,
            email_confirmed_at: null,
            created_at: now,
            updated_at: now,
          })
          .execute();
        await trx
          .insertInto("memberships")
          .values({
            id: membershipId,
            merchant_id: id,
            user_id: userId,
            role: "owner",
            created_at: now,
            updated_at: now,
            last_sign_in_at: null,
          })
          .execute();
        const test = await issueSecretKey(trx, id, "test", now, peppered);
        const live = await issueSecretKey(trx, id, "live", now, peppered);
        const session = await issueSession(trx, id, membershipId, now, peppered);
        return {
          merchant: presentMerchant({ id, business_name: input.businessName, email: input.email }),
          ...session,
          keys: { test: { secretKey: test }, live: { secretKey: live } },
          // The browser that signed up is its owner's: known to the account from the start.
          device: await issueDeviceCookie(userAccount(userId)),
        };
      });
  } catch (err) {
    if (!isUniqueViolation(err)) throw err;
    // Over the network a taken email is answered as a new one would be (nothing says it is registered);
    // its owner gets an email saying so instead. Only signups from this process itself (the demo merchant
    // at boot, scripts) are told 409 `email_taken`.
    if (input.clientAddress === null)
      throw new AppError("email_taken", "email is already registered; sign in instead.");
    void sendAccountMail({
      to: input.email,
      kind: "signup_taken",
      subject: "Someone tried to open a Paygate account with your email",
      lines: [
        `Someone tried to create the Paygate account "${input.businessName}" with this email, which already has an account. Nothing was created.`,
        "If it was you, sign in instead, or reset your password. If not, you need do nothing.",
      ],
      action: { label: "Sign in", path: "/dashboard/login" },
    });
    return decoySignup(input, now);
  }
}

/**
 * What a signup with a taken email answers: the shape of a new merchant's answer, with an id, a session token
 * and keys that are drawn like real ones and open nothing (no row holds their hashes). A device cookie of no
 * account, so the answer's headers are alike too.
 */
async function decoySignup(input: { businessName: string; email: string }, now: number) {
  return {
    merchant: presentMerchant({ id: newId(), business_name: input.businessName, email: input.email }),
    accessToken: `mst_${randomString(43)}`,
    expiresAt: new Date(now + env().SESSION_TTL_SECONDS * 1000).toISOString(),
    keys: {
      test: { secretKey: `sk_test_${randomString(43)}` },
      live: { secretKey: `sk_live_${randomString(43)}` },
    },
    device: await issueDeviceCookie(userAccount(newId())),
  };
}
