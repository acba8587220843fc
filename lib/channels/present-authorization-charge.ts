import type { Selectable } from "kysely";
import type { AuthorizationRow } from "@/lib/customers/authorization-status";
import { presentAuthorization } from "@/lib/customers/present";
import { type ChargeAttemptsTable, toMinor } from "@/lib/db/schema";
import type { TransactionRow } from "@/lib/db/types";
import { formatAmount } from "@/lib/money/amount";
import type { Currency } from "@/lib/money/currencies";
import { checkoutUrl } from "@/lib/payments/present";
import { isTerminal } from "@/lib/payments/status";
import { channelAmounts } from "./settlement";

/**
 * A charge of a saved card as POST /v1/payment/charge-authorization answers it, from what is recorded (the
 * same whether it was just made or is a charge of that reference made before): paid, declined with the
 * attempt's reason, waiting for the customer to answer the bank on the hosted page (`requires_action`, with
 * its address), or still at the card's network (`pending`).
 */
export function presentAuthorizationCharge(
  tx: TransactionRow,
  attempt: Pick<Selectable<ChargeAttemptsTable>, "status" | "failure_reason"> | undefined,
  authorization: AuthorizationRow,
) {
  const currency = tx.currency as Currency;
  const amounts = channelAmounts(tx, "card");
  const base = {
    reference: tx.reference,
    amount: formatAmount(toMinor(tx.amount_minor), currency),
    fees: formatAmount(amounts.feeMinor, currency),
    total: formatAmount(amounts.totalMinor, currency),
    currency,
    authorization: presentAuthorization(authorization),
  };
  if (tx.status === "success") return { ...base, status: "success" };
  if (isTerminal(tx.status))
    return { ...base, status: "failed", reason: attempt?.failure_reason ?? tx.status };
  if (attempt?.status === "awaiting_action" || attempt?.status === "awaiting_otp") {
    return {
      ...base,
      status: "requires_action",
      checkoutUrl: checkoutUrl(tx.access_code),
      accessCode: tx.access_code,
    };
  }
  return { ...base, status: "pending" };
}
