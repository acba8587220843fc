import type { Selectable } from "kysely";
import { type RefundsTable, toMillis, toMinor } from "@/lib/db/schema";
import { formatAmount } from "@/lib/money/amount";
import type { Currency } from "@/lib/money/currencies";

export type RefundRow = Selectable<RefundsTable>;

/** The refund object of docs/refunds.md; every amount with exactly the currency's minor digits. */
export function presentRefund(row: RefundRow) {
  return {
    id: row.id,
    reference: row.reference,
    amount: formatAmount(toMinor(row.amount_minor), row.currency as Currency),
    currency: row.currency,
    status: row.status,
    reason: row.reason,
    type: row.type,
    failureReason: row.failure_reason,
    createdAt: new Date(toMillis(row.created_at)).toISOString(),
    processedAt: row.processed_at === null ? null : new Date(toMillis(row.processed_at)).toISOString(),
  };
}
