import { AppError } from "@/lib/core/errors";
import { db } from "@/lib/db/client";
import { decoyPasswordHash, verifyPassword } from "@/lib/security/password";
import { pepper } from "@/lib/security/pepper";
import { countLoginAttempt, reserve } from "@/lib/security/rate-limit";
import { issueSession } from "./credentials";
import { presentMerchant } from "./present";

/**
 * Exchange email and password for a session token. Every attempt spends a token of the client address's login
 * budget up front (429 once spent) and a successful one gets it back, so only failures count, yet parallel
 * guesses cannot all slip past before the first failure is counted. Each attempt is also counted against the
 * account it names, from any address and from this one (`countLoginAttempt`): guesses spread over many
 * addresses lock the account for a while, and a right password starts the counts over. An unknown email is
 * counted, refused and timed like a known one.
 */
export async function loginMerchant(input: { email: string; password: string; clientAddress: string }) {
  const permit = await reserve("login", input.clientAddress);
  try {
    const attempt = await countLoginAttempt({ account: input.email, address: input.clientAddress });
    const merchant = await db()
      .selectFrom("merchants")
      .select(["id", "business_name", "email", "password_hash"])
      .where("email", "=", input.email)
      .executeTakeFirst();
    const valid = await verifyPassword(
      input.password,
      merchant?.password_hash ?? (await decoyPasswordHash()),
    );
    if (!merchant || !valid) {
      throw new AppError("invalid_credentials", "The email or password is incorrect.");
    }
    permit.refund();
    await attempt.succeeded();
    const peppered = await pepper();
    const session = await db()
      .transaction()
      .execute((trx) => issueSession(trx, merchant.id, Date.now(), peppered));
    return { merchant: presentMerchant(merchant), ...session };
  } finally {
    await permit.settle();
  }
}
