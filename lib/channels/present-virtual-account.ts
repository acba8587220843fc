import type { Selectable } from "kysely";
import { toMillis, toMinor, type VirtualAccountsTable } from "@/lib/db/schema";
import type { TransactionRow } from "@/lib/db/types";
import { formatAmount } from "@/lib/money/amount";
import type { Currency } from "@/lib/money/currencies";

export type VirtualAccount = Selectable<VirtualAccountsTable>;

/** docs/api.md "Virtual account", plus the exact amount to send. */
export function presentVirtualAccount(tx: TransactionRow, va: VirtualAccount, now = Date.now()) {
  const expiresAt = toMillis(va.expires_at);
  return {
    status: "awaiting_transfer",
    reference: tx.reference,
    accountNumber: va.account_number,
    bankName: va.bank_name,
    accountName: va.account_name,
    amount: formatAmount(toMinor(va.expected_minor), va.currency as Currency),
    currency: va.currency,
    expiresAt: new Date(expiresAt).toISOString(),
    expiresInSeconds: Math.max(0, Math.floor((expiresAt - now) / 1000)),
  };
}
