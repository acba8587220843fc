import { AppError } from "@/lib/core/errors";
import type { AccessCodePrincipal } from "@/lib/core/principal";
import { db } from "@/lib/db/client";
import { toMillis } from "@/lib/db/schema";
import type { TransactionRow } from "@/lib/db/types";
import { env } from "@/lib/env";
import { lockTransaction, transition } from "@/lib/payments/state-machine";
import { isTerminal } from "@/lib/payments/status";
import type { Rails } from "@/lib/rails/types";
import { newId } from "@/lib/security/tokens";
import { emitEvent } from "@/lib/webhooks/emit-event";
import { createAttempt, updateAttempt } from "./attempts";
import { openForBankTransfer } from "./open-for-bank-transfer";
import { openVirtualAccount } from "./open-virtual-account";
import { presentVirtualAccount, type VirtualAccount } from "./present-virtual-account";
import { assertRailTakes, recordRailCharge } from "./record-rail-charge";
import { channelAmounts } from "./settlement";

/** How long a concurrent request waits for an account another request is having issued. */
const WAIT_MS = 15_000;
/** An issuance older than this without an account died with its process: a new one may start. */
const ISSUING_MS = 2 * 60_000;

type Phase =
  | { kind: "account"; tx: TransactionRow; va: VirtualAccount }
  | { kind: "issue"; tx: TransactionRow; attemptId: string; expiresAt: number }
  | { kind: "wait" };

/**
 * The bank transfer's account from a processor (Paystack's temporary accounts): the same account inside its
 * window, as on the sandbox, but the processor is called with no lock held (a network call under the row lock
 * would hold every write on SQLite). Three steps:
 *  1. under the lock: an open account is answered; otherwise an attempt and its processor reference are
 *     recorded (so the processor's webhook finds the transaction even if this process dies next);
 *  2. the processor issues the account; its window is ours (BANK_TRANSFER_WINDOW_SECONDS) or shorter when the
 *     processor closes it sooner;
 *  3. under the lock: the account is recorded and the transaction waits for the transfer. A request that
 *     arrives while another is at step 2 waits for its account instead of issuing a second one.
 * A processor that fails issues nothing: the attempt fails and the answer is 502 `processor_error`.
 */
export async function ensureProcessorAccount(principal: AccessCodePrincipal, rails: Rails) {
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    const phase = await db()
      .transaction()
      .execute(async (trx): Promise<Phase> => {
        const tx = await openForBankTransfer(trx, principal);
        assertRailTakes(rails, tx);
        const now = Date.now();
        const existing = await openVirtualAccount(trx, tx.id, now);
        if (existing) {
          const waiting =
            tx.status === "awaiting_transfer" ? tx : await transition(trx, tx, "awaiting_transfer");
          return { kind: "account", tx: waiting, va: existing };
        }
        const issuing = await trx
          .selectFrom("charge_attempts")
          .select(["id", "created_at"])
          .where("transaction_id", "=", tx.id)
          .where("channel", "=", "bank_transfer")
          .where("status", "=", "awaiting_transfer")
          .where("created_at", ">", now - ISSUING_MS)
          .orderBy("created_at", "desc")
          .limit(1)
          .executeTakeFirst();
        if (issuing) {
          const hasAccount = await trx
            .selectFrom("virtual_accounts")
            .select("id")
            .where("attempt_id", "=", issuing.id)
            .executeTakeFirst();
          if (!hasAccount) return { kind: "wait" };
        }
        const attemptId = await createAttempt(trx, tx, "bank_transfer", "awaiting_transfer", {});
        await recordRailCharge(trx, rails, {
          tx,
          attemptId,
          channel: "bank_transfer",
          amountMinor: channelAmounts(tx, "bank_transfer").totalMinor,
        });
        return { kind: "issue", tx, attemptId, expiresAt: now + env().BANK_TRANSFER_WINDOW_SECONDS * 1000 };
      });
    if (phase.kind === "account") return presentVirtualAccount(phase.tx, phase.va);
    if (phase.kind === "issue") return issue(principal, rails, phase);
    if (Date.now() > deadline) {
      throw new AppError(
        "invalid_state",
        "The account for this transfer is still being prepared; try again.",
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

async function issue(
  principal: AccessCodePrincipal,
  rails: Rails,
  phase: { tx: TransactionRow; attemptId: string; expiresAt: number },
) {
  const { tx, attemptId } = phase;
  const merchant = await db()
    .selectFrom("merchants")
    .select("business_name")
    .where("id", "=", tx.merchant_id)
    .executeTakeFirstOrThrow();
  let issued: Awaited<ReturnType<Rails["transfer"]["issueVirtualAccount"]>>;
  try {
    issued = await rails.transfer.issueVirtualAccount({
      reference: tx.reference,
      attemptId,
      accountName: `Paygate/${merchant.business_name}`.slice(0, 60),
      amountMinor: channelAmounts(tx, "bank_transfer").totalMinor,
      currency: tx.currency,
      email: tx.email ?? "",
      expiresAt: phase.expiresAt,
    });
  } catch (err) {
    await db()
      .transaction()
      .execute(async (trx) => {
        await lockTransaction(trx, tx.id);
        await updateAttempt(trx, attemptId, { status: "failed", failureReason: "processor_error" });
      });
    if (err instanceof AppError) throw err;
    throw new AppError(
      "processor_error",
      "The bank transfer account could not be issued; nothing was charged.",
    );
  }
  const done = await db()
    .transaction()
    .execute(async (trx): Promise<{ moved: TransactionRow; va: VirtualAccount } | AppError> => {
      const row = await lockTransaction(trx, principal.transactionId);
      const now = Date.now();
      // Processors hand account numbers out again once they expire: an earlier, closed account of the same
      // number is renamed (its transfers are found by their charge's reference, never by number).
      const earlier = await trx
        .selectFrom("virtual_accounts")
        .select(["id", "expires_at", "rail"])
        .where("account_number", "=", issued.accountNumber)
        .executeTakeFirst();
      if (earlier) {
        if (earlier.rail === null || toMillis(earlier.expires_at) > now) {
          await updateAttempt(trx, attemptId, { status: "failed", failureReason: "account_number_in_use" });
          return new AppError(
            "processor_error",
            "The processor gave an account number that is still in use; nothing was charged. Try again.",
          );
        }
        await trx
          .updateTable("virtual_accounts")
          .set({ account_number: `${issued.accountNumber}~${earlier.id}` })
          .where("id", "=", earlier.id)
          .execute();
      }
      const account: VirtualAccount = {
        id: newId(),
        transaction_id: row.id,
        attempt_id: attemptId,
        merchant_id: row.merchant_id,
        mode: row.mode,
        account_number: issued.accountNumber,
        bank_name: issued.bankName,
        account_name: issued.accountName,
        expected_minor: channelAmounts(row, "bank_transfer").totalMinor,
        currency: row.currency,
        expires_at: Math.min(phase.expiresAt, issued.expiresAt ?? phase.expiresAt),
        created_at: now,
        rail: rails.name,
      };
      await trx.insertInto("virtual_accounts").values(account).execute();
      if (isTerminal(row.status)) {
        // Paid or ended while the account was being issued: nothing waits for it (money sent anyway is
        // refunded as late); the customer is told the payment's state.
        await updateAttempt(trx, attemptId, { status: "failed", failureReason: "transaction_closed" });
        return new AppError(
          "invalid_state",
          `Cannot pay by bank transfer: transaction ${row.reference} is already ${row.status}.`,
        );
      }
      const next = await transition(trx, row, "awaiting_transfer", {
        mismatch_expected_minor: null,
        mismatch_received_minor: null,
        access_expires_at: Math.max(toMillis(row.access_expires_at), toMillis(account.expires_at)),
      });
      const shown = presentVirtualAccount(next, account, now);
      await emitEvent(trx, next, "checkout.awaiting_transfer", account.id, {
        accountNumber: shown.accountNumber,
        bankName: shown.bankName,
        accountName: shown.accountName,
        transferAmount: shown.amount,
        expiresAt: shown.expiresAt,
      });
      return { moved: next, va: account };
    });
  if (done instanceof AppError) throw done;
  return presentVirtualAccount(done.moved, done.va);
}
