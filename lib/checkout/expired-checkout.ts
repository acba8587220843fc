import { db } from "@/lib/db/client";
import { toMillis, toMinor } from "@/lib/db/schema";
import { deploymentMode } from "@/lib/env";
import { formatAmount } from "@/lib/money/amount";
import type { Currency } from "@/lib/money/currencies";
import { ACCESS_CODE_PATTERN } from "@/lib/payments/authenticate-access-code";

/**
 * The checkout of an access code this deployment issued and whose time is up: whose it is and where its
 * merchant asked the customer to be sent back (callbackUrl), with what the return carries. Null for a code it
 * never issued (a typo), and for one still open. The not-found page asks only after proxy.ts has looked the
 * code up against the address's budget of unknown codes.
 */
export async function expiredCheckout(accessCode: string) {
  if (!ACCESS_CODE_PATTERN.test(accessCode)) return null;
  const row = await db()
    .selectFrom("transactions")
    .innerJoin("merchants", "merchants.id", "transactions.merchant_id")
    .select([
      "transactions.reference",
      "transactions.status",
      "transactions.amount_minor",
      "transactions.currency",
      "transactions.callback_url",
      "transactions.access_expires_at",
      "transactions.mode",
      "merchants.business_name",
    ])
    .where("transactions.access_code", "=", accessCode)
    .executeTakeFirst();
  if (!row || row.mode !== deploymentMode() || toMillis(row.access_expires_at) > Date.now()) return null;
  const currency = row.currency as Currency;
  return {
    merchantName: row.business_name,
    callbackUrl: row.callback_url,
    result: {
      status: row.status,
      reference: row.reference,
      amount: formatAmount(toMinor(row.amount_minor), currency),
      currency,
    },
  };
}
