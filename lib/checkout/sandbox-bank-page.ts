import { cardDetails } from "@/lib/channels/waiting-card-attempt";
import { returnFromBankPage } from "@/lib/checkout/back-from-bank-page";
import { BRAND_LABEL, type Brand } from "@/lib/checkout/card";
import { db } from "@/lib/db/client";
import { deploymentMode } from "@/lib/env";
import { formatAmount } from "@/lib/money/amount";
import { isCurrency } from "@/lib/money/currencies";
import { answerSandboxBankPage } from "@/lib/rails/sandbox";

/** What the sandbox bank's page shows: who is asking for how much, on which card. */
export type SandboxBankPage = {
  merchant: string;
  amount: string;
  currency: string;
  card: string;
};

const ID = /^[A-Za-z0-9_-]{1,100}$/;

/** The card attempt waiting on the sandbox bank's page for this authorisation, with its transaction. */
async function waitingAttempt(attemptId: string, authorization: string) {
  if (!ID.test(attemptId) || !ID.test(authorization)) return null;
  const row = await db()
    .selectFrom("charge_attempts")
    .innerJoin("transactions", "transactions.id", "charge_attempts.transaction_id")
    .innerJoin("merchants", "merchants.id", "transactions.merchant_id")
    .select([
      "charge_attempts.id as attempt_id",
      "charge_attempts.status",
      "charge_attempts.details",
      "charge_attempts.channel",
      "transactions.id",
      "transactions.reference",
      "transactions.merchant_id",
      "transactions.mode",
      "transactions.access_code",
      "transactions.amount_minor",
      "transactions.card_fee_minor",
      "transactions.merchant_bears_cost",
      "transactions.currency",
      "merchants.business_name",
    ])
    .where("charge_attempts.id", "=", attemptId)
    .where("transactions.mode", "=", deploymentMode())
    .executeTakeFirst();
  if (row?.channel !== "card") return null;
  // Only the sandbox network's own charges: a processor's attempt is never answered here.
  const sandbox = await db()
    .selectFrom("sandbox_card_charges")
    .select("attempt_id")
    .where("attempt_id", "=", attemptId)
    .executeTakeFirst();
  if (!sandbox) return null;
  const details = cardDetails(row);
  if (details.step !== "redirect" || details.authorization !== authorization) return null;
  return { row, details };
}

/**
 * GET /pay/sandbox/bank?attempt=&authorization=: the sandbox bank's 3-D Secure page for a test card that asks
 * for it (4000 0000 0000 3063, docs/testing.md). Null when nothing waits there (answered, or not an address
 * the sandbox gave).
 */
export async function sandboxBankPage(input: {
  attemptId: string;
  authorization: string;
}): Promise<SandboxBankPage | null> {
  const found = await waitingAttempt(input.attemptId, input.authorization);
  if (found?.row.status !== "awaiting_action") return null;
  const { row, details } = found;
  const currency = row.currency;
  if (!isCurrency(currency)) return null;
  const total = BigInt(row.amount_minor) + (row.merchant_bears_cost ? 0n : BigInt(row.card_fee_minor));
  return {
    merchant: row.business_name,
    amount: formatAmount(total, currency),
    currency,
    card: `${BRAND_LABEL[details.summary.brand as Brand] || "Card"} •••• ${details.summary.last4}`,
  };
}

/**
 * The customer's answer on that page: the sandbox network decides, the charge is checked as on a return from
 * Paystack's bank page (lib/checkout/return-from-paystack.ts), and the customer goes back to the checkout,
 * which shows the outcome. Returns where to send the browser, or null when nothing waited there.
 */
export async function answerSandboxBank(input: {
  attemptId: string;
  authorization: string;
  decision: "approve" | "decline";
}): Promise<string | null> {
  const found = await waitingAttempt(input.attemptId, input.authorization);
  if (!found) return null;
  const answered = await answerSandboxBankPage(input);
  // Nothing decided here (answered already): the checkout shows where the payment stands.
  if (!answered) return `/pay/${found.row.access_code}`;
  return returnFromBankPage(found.row, "card", "sandbox");
}
