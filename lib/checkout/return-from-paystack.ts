import { returnFromBankPage } from "@/lib/checkout/back-from-bank-page";
import { db } from "@/lib/db/client";
import { deploymentMode } from "@/lib/env";
import { PAYSTACK_REFERENCE } from "@/lib/rails/paystack/references";

/**
 * GET /pay/return/paystack?reference=…: where Paystack sends the customer back from the bank's page (3-D
 * Secure, internet banking): the Callback URL set in Paystack's dashboard (docs/go-live.md). The charge is
 * found by the reference we gave Paystack, its standing is asked of Paystack (GET /charge/{reference}, then
 * GET /transaction/verify/{reference}) and applied, and the customer lands on the checkout, which shows the
 * outcome (a refusal with its reason: back-from-bank-page.ts). Returns where to send the browser; null for a
 * reference that is not one of ours (a 404). The reference carries the attempt's random id, so it cannot be
 * guessed from the transaction's.
 */
export async function returnFromPaystack(input: { reference: string | null }): Promise<string | null> {
  const reference = input.reference ?? "";
  if (!PAYSTACK_REFERENCE.test(reference)) return null;
  const found = await db()
    .selectFrom("rail_charges")
    .innerJoin("transactions", "transactions.id", "rail_charges.transaction_id")
    .select([
      "rail_charges.channel",
      "transactions.id",
      "transactions.reference",
      "transactions.merchant_id",
      "transactions.mode",
      "transactions.access_code",
    ])
    .where("rail_charges.rail_reference", "=", reference)
    .where("transactions.mode", "=", deploymentMode())
    .executeTakeFirst();
  if (!found) return null;
  return returnFromBankPage(found, found.channel, "paystack");
}
