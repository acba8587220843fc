import { presentVirtualAccount } from "@/lib/channels/present-virtual-account";
import { db } from "@/lib/db/client";
import type { TransactionRow } from "@/lib/db/types";
import type { CurrentAttempt } from "./types";

function detailsOf(json: string): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(json);
    return parsed && typeof parsed === "object" ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

const text = (value: unknown) => (typeof value === "string" ? value : "");

/**
 * What the customer was last shown for the attempt the transaction waits on, as the charge endpoint answered
 * it: the virtual account (awaiting_transfer), the USSD code (awaiting_ussd) or the bank asked
 * (awaiting_bank_authorization). The page renders it on the server, so a reload, a form posted before the
 * page's code ran, or a browser without JavaScript shows the same step. Read only: nothing is issued here.
 */
export async function currentAttempt(tx: TransactionRow): Promise<CurrentAttempt | null> {
  if (tx.status === "awaiting_transfer") {
    const va = await db()
      .selectFrom("virtual_accounts")
      .selectAll()
      .where("transaction_id", "=", tx.id)
      .orderBy("created_at", "desc")
      .limit(1)
      .executeTakeFirst();
    return va ? { kind: "bank_transfer", account: presentVirtualAccount(tx, va) } : null;
  }
  if (tx.status !== "awaiting_ussd" && tx.status !== "awaiting_bank_authorization") return null;
  const channel = tx.status === "awaiting_ussd" ? "ussd" : "bank_payment";
  const attempt = await db()
    .selectFrom("charge_attempts")
    .select(["details"])
    .where("transaction_id", "=", tx.id)
    .where("channel", "=", channel)
    .where("status", "=", tx.status)
    .orderBy("created_at", "desc")
    .limit(1)
    .executeTakeFirst();
  if (!attempt) return null;
  const details = detailsOf(attempt.details);
  if (channel === "bank_payment") {
    return {
      kind: "bank_payment",
      result: { bankCode: text(details.bankCode), bankName: text(details.bankName) },
    };
  }
  const ussdCode = text(details.ussdCode);
  return {
    kind: "ussd",
    result: {
      ussdCode,
      dialUrl: `tel:${encodeURIComponent(ussdCode)}`,
      bankCode: text(details.bankCode),
      bankName: text(details.bankName),
    },
  };
}
