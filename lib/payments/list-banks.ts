import { bankChoices, type Country, countryForCurrency } from "@/lib/banks/banks";
import type { AccessCodePrincipal } from "@/lib/core/principal";
import { db } from "@/lib/db/client";

/** Banks for bank payment and USSD: of `country`, or of the transaction's currency's country when omitted. */
export async function listBanks(input: { principal: AccessCodePrincipal; country?: Country }) {
  let country = input.country;
  if (!country) {
    const row = await db()
      .selectFrom("transactions")
      .select("currency")
      .where("id", "=", input.principal.transactionId)
      .executeTakeFirst();
    country = countryForCurrency(row?.currency ?? "NGN");
  }
  return bankChoices(country);
}
