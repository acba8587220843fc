import { AppError } from "@/lib/core/errors";
import type { AccessCodePrincipal } from "@/lib/core/principal";
import { db } from "@/lib/db/client";
import { toMillis, toMinor } from "@/lib/db/schema";
import { formatAmount } from "@/lib/money/amount";
import type { Currency } from "@/lib/money/currencies";
import { chargeAction } from "./charge-action";
import { presentCheckoutRecord } from "./present";
import { isTerminal } from "./status";

/**
 * Checkout verify: the status of the access code's own transaction, for the pay page to poll. While a
 * transfer is awaited it names the latest account's window too, so an open page follows a window that moved
 * (the sandbox clock) within one poll.
 */
export async function verifyCheckout(input: { principal: AccessCodePrincipal }) {
  const row = await db()
    .selectFrom("transactions")
    .selectAll()
    .where("id", "=", input.principal.transactionId)
    .where("mode", "=", input.principal.mode)
    .executeTakeFirst();
  if (!row) throw new AppError("invalid_access_code", "The access code no longer matches a transaction.");
  const base = presentCheckoutRecord(row);
  const action = isTerminal(row.status) ? undefined : await chargeAction(db(), row.id);
  const record = action ? { ...base, action } : base;
  if (row.status !== "awaiting_transfer") return record;
  const account = await db()
    .selectFrom("virtual_accounts")
    .select(["account_number", "expected_minor", "currency", "expires_at"])
    .where("transaction_id", "=", row.id)
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .executeTakeFirst();
  if (!account) return record;
  const expiresAt = toMillis(account.expires_at);
  return {
    ...record,
    transfer: {
      accountNumber: account.account_number,
      amount: formatAmount(toMinor(account.expected_minor), account.currency as Currency),
      expiresAt: new Date(expiresAt).toISOString(),
      expiresInSeconds: Math.max(0, Math.floor((expiresAt - Date.now()) / 1000)),
    },
  };
}
