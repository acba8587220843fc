import type { AuthorizationRow } from "@/lib/customers/authorization-status";
import { presentAuthorization } from "@/lib/customers/present";
import { toMillis, toMinor } from "@/lib/db/schema";
import type { TransactionRow } from "@/lib/db/types";
import { formatAmount } from "@/lib/money/amount";
import type { Currency } from "@/lib/money/currencies";
import type { EventType } from "./event-types";

/**
 * `data` of an event (docs/api.md): always reference, amount, currency, status; payment events add more, with
 * the saved card the payment saved or charged (`authorization`, its row read by the caller).
 */
export function eventData(
  tx: TransactionRow,
  type: EventType,
  extra: Record<string, unknown> = {},
  authorization: AuthorizationRow | null = null,
) {
  const currency = tx.currency as Currency;
  const money = (v: TransactionRow["amount_minor"] | null) =>
    v === null ? null : formatAmount(toMinor(v), currency);
  const base = {
    reference: tx.reference,
    amount: formatAmount(toMinor(tx.amount_minor), currency),
    currency,
    status: tx.status,
  };
  if (!type.startsWith("payment.")) return { ...base, ...extra };
  return {
    ...base,
    channel: tx.channel,
    fees: money(tx.fees_minor),
    amountSettled: money(tx.amount_settled_minor),
    paidAt: tx.paid_at === null ? null : new Date(toMillis(tx.paid_at)).toISOString(),
    metadata: tx.metadata ? (JSON.parse(tx.metadata) as Record<string, unknown>) : {},
    customer: { code: tx.customer_id, email: tx.email, name: tx.customer_name },
    authorization:
      authorization && authorization.id === tx.authorization_id ? presentAuthorization(authorization) : null,
    ...extra,
  };
}
