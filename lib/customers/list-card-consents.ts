import { db } from "@/lib/db/client";
import type { Mode } from "@/lib/db/schema";
import { presentConsent } from "./present";

/**
 * The consents given for a customer's saved cards, by authorization code, oldest first (the console shows them
 * with each card): the words shown, the language, the time, the client address and the payment it came with.
 */
export async function listCardConsents(input: { merchantId: string; mode: Mode; customerCode: string }) {
  const rows = await db()
    .selectFrom("card_consents")
    .innerJoin("card_authorizations", "card_authorizations.id", "card_consents.authorization_id")
    .leftJoin("transactions", "transactions.id", "card_consents.transaction_id")
    .selectAll("card_consents")
    .select("transactions.reference as reference")
    .where("card_authorizations.customer_id", "=", input.customerCode)
    .where("card_consents.merchant_id", "=", input.merchantId)
    .where("card_consents.mode", "=", input.mode)
    .orderBy("card_consents.given_at")
    .execute();
  const byAuthorization = new Map<string, ReturnType<typeof presentConsent>[]>();
  for (const { reference, ...row } of rows) {
    const list = byAuthorization.get(row.authorization_id) ?? [];
    list.push(presentConsent(row, reference));
    byAuthorization.set(row.authorization_id, list);
  }
  return byAuthorization;
}
