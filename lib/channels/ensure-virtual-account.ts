import type { AccessCodePrincipal } from "@/lib/core/principal";
import { toMillis } from "@/lib/db/schema";
import type { TransactionRow, Trx } from "@/lib/db/types";
import { env } from "@/lib/env";
import { log } from "@/lib/log";
import { transition } from "@/lib/payments/state-machine";
import { sandboxRails } from "@/lib/rails/sandbox";
import { newId } from "@/lib/security/tokens";
import { emitEvent } from "@/lib/webhooks/emit-event";
import { createAttempt } from "./attempts";
import { releaseHeldTransfers } from "./held-transfers";
import { openForBankTransfer } from "./open-for-bank-transfer";
import { openVirtualAccount } from "./open-virtual-account";
import { presentVirtualAccount, type VirtualAccount } from "./present-virtual-account";
import { channelAmounts } from "./settlement";

/** How many account numbers are drawn before giving up: a clash is one in a billion per account issued. */
const ACCOUNT_NUMBER_TRIES = 5;

/**
 * Issue (or return) the one-time sandbox virtual account for the access code's transaction. Inside the window
 * the same account comes back, also to concurrent callers: the transaction row is locked first, so exactly one
 * caller issues and the others find its account. (A processor's accounts: ensure-processor-account.ts, which
 * holds no lock across its network call.)
 */
export async function ensureVirtualAccount(trx: Trx, principal: AccessCodePrincipal) {
  const tx = await openForBankTransfer(trx, principal);
  const now = Date.now();
  const existing = await openVirtualAccount(trx, tx.id, now);
  if (existing) {
    // Back from another channel inside the window: the same account, and the transaction waits for it again
    // (a mismatch recorded on this account stays news). Asking again while already waiting changes nothing.
    const waiting = tx.status === "awaiting_transfer" ? tx : await transition(trx, tx, "awaiting_transfer");
    return { tx: waiting, va: existing };
  }

  // The window of the last account has ended: what was held on it can no longer complete the payment.
  await releaseHeldTransfers(trx, tx, { expiredBy: now });
  const merchant = await trx
    .selectFrom("merchants")
    .select("business_name")
    .where("id", "=", tx.merchant_id)
    .executeTakeFirstOrThrow();
  const attemptId = await createAttempt(trx, tx, "bank_transfer", "awaiting_transfer", {});
  const va = await issueVirtualAccount(trx, tx, {
    attemptId,
    accountName: `Paygate/${merchant.business_name}`.slice(0, 60),
    now,
  });
  // A new account starts clean: a mismatch on the previous one is no longer news. The checkout lives at
  // least as long as the account's window, so the page can follow a transfer to the end (a payment link's
  // 30-minute checkout could otherwise expire while the account it showed is still valid).
  const moved = await transition(trx, tx, "awaiting_transfer", {
    mismatch_expected_minor: null,
    mismatch_received_minor: null,
    access_expires_at: Math.max(toMillis(tx.access_expires_at), toMillis(va.expires_at)),
  });
  const shown = presentVirtualAccount(moved, va, now);
  await emitEvent(trx, moved, "checkout.awaiting_transfer", va.id, {
    accountNumber: shown.accountNumber,
    bankName: shown.bankName,
    accountName: shown.accountName,
    transferAmount: shown.amount,
    expiresAt: shown.expiresAt,
  });
  return { tx: moved, va };
}

/**
 * Draw an account number from the rail and record it. Account numbers are unique across all merchants and
 * modes; a number already on record (the sandbox draws 9 random digits) is drawn again instead of failing
 * the request on the unique index. `ON CONFLICT DO NOTHING` keeps the transaction usable on PostgreSQL,
 * where a failed insert would abort it.
 */
async function issueVirtualAccount(
  trx: Trx,
  tx: TransactionRow,
  input: { attemptId: string; accountName: string; now: number },
): Promise<VirtualAccount> {
  for (let attempt = 1; ; attempt++) {
    const expiresAt = input.now + env().BANK_TRANSFER_WINDOW_SECONDS * 1000;
    const issued = await sandboxRails.transfer.issueVirtualAccount({
      reference: tx.reference,
      attemptId: input.attemptId,
      accountName: input.accountName,
      amountMinor: channelAmounts(tx, "bank_transfer").totalMinor,
      currency: tx.currency,
      email: tx.email ?? "",
      expiresAt,
    });
    const va: VirtualAccount = {
      id: newId(),
      transaction_id: tx.id,
      attempt_id: input.attemptId,
      merchant_id: tx.merchant_id,
      mode: tx.mode,
      account_number: issued.accountNumber,
      bank_name: issued.bankName,
      account_name: issued.accountName,
      expected_minor: channelAmounts(tx, "bank_transfer").totalMinor,
      currency: tx.currency,
      expires_at: expiresAt,
      created_at: input.now,
      rail: null,
    };
    const inserted = await trx
      .insertInto("virtual_accounts")
      .values(va)
      .onConflict((oc) => oc.column("account_number").doNothing())
      .executeTakeFirst();
    if (Number(inserted.numInsertedOrUpdatedRows ?? 0n) === 1) return va;
    log.warn("virtual_account_number_clash", { transactionId: tx.id, attempt });
    if (attempt >= ACCOUNT_NUMBER_TRIES) {
      throw new Error(`the transfer rail issued ${attempt} account numbers already on record`);
    }
  }
}
