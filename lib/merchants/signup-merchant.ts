import { db } from "@/lib/db/client";
import { isUniqueViolation } from "@/lib/db/errors";
import { AppError } from "@/lib/http/errors";
import { CHANNELS, serializeChannels } from "@/lib/payments/channels";
import { hashPassword } from "@/lib/security/password";
import { pepper } from "@/lib/security/pepper";
import { newId } from "@/lib/security/tokens";
import { issueSecretKey, issueSession } from "./credentials";
import { presentMerchant } from "./present";

/**
 * Create a merchant with every channel enabled, the customer bearing fees, one test and one live secret key
 * (shown once, here) and a signed-in session.
 */
export async function signupMerchant(input: { businessName: string; email: string; password: string }) {
  const passwordHash = await hashPassword(input.password);
  const now = Date.now();
  const id = newId();
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
            password_hash: passwordHash,
            channels: serializeChannels(CHANNELS),
            merchant_bears_cost: 0,
            brand_color: null,
            logo_url: null,
            created_at: now,
            updated_at: now,
          })
          .execute();
        const test = await issueSecretKey(trx, id, "test", now, peppered);
        const live = await issueSecretKey(trx, id, "live", now, peppered);
        const session = await issueSession(trx, id, now, peppered);
        return {
          merchant: presentMerchant({ id, business_name: input.businessName, email: input.email }),
          ...session,
          keys: { test: { secretKey: test }, live: { secretKey: live } },
        };
      });
  } catch (err) {
    if (isUniqueViolation(err))
      throw new AppError("email_taken", "email is already registered; sign in instead.");
    throw err;
  }
}
