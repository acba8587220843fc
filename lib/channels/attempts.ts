import type { TransactionRow, Trx } from "@/lib/db/types";
import type { Channel } from "@/lib/payments/channel-list";
import { newId } from "@/lib/security/tokens";

/** Statuses of one charge attempt. */
export type AttemptStatus =
  /** Card: the network call is under way. */
  | "authorizing"
  | "awaiting_transfer"
  | "awaiting_bank_authorization"
  | "awaiting_ussd"
  | "awaiting_otp"
  /** Card: the network asked the customer for a step other than an OTP (PIN, phone, birthday, address, 3-D Secure). */
  | "awaiting_action"
  /** This attempt paid the transaction. */
  | "success"
  /** Declined, wrong OTP, or the customer declined in the app. */
  | "failed"
  /** Money arrived but the transaction was already paid or finished: it is refunded (an automatic refund). */
  | "refunded";

export async function createAttempt(
  trx: Trx,
  tx: TransactionRow,
  channel: Channel,
  status: AttemptStatus,
  details: Record<string, unknown>,
): Promise<string> {
  const id = newId();
  const now = Date.now();
  await trx
    .insertInto("charge_attempts")
    .values({
      id,
      transaction_id: tx.id,
      merchant_id: tx.merchant_id,
      mode: tx.mode,
      channel,
      status,
      details: JSON.stringify(details),
      failure_reason: null,
      captured_minor: null,
      created_at: now,
      updated_at: now,
    })
    .execute();
  return id;
}

export async function updateAttempt(
  trx: Trx,
  attemptId: string,
  patch: {
    status: AttemptStatus;
    failureReason?: string;
    capturedMinor?: bigint;
    details?: Record<string, unknown>;
  },
): Promise<void> {
  await trx
    .updateTable("charge_attempts")
    .set({
      status: patch.status,
      updated_at: Date.now(),
      ...(patch.failureReason !== undefined && { failure_reason: patch.failureReason }),
      ...(patch.capturedMinor !== undefined && { captured_minor: patch.capturedMinor }),
      ...(patch.details !== undefined && { details: JSON.stringify(patch.details) }),
    })
    .where("id", "=", attemptId)
    .execute();
}

/** The most recent attempt of a channel on a transaction in one of `statuses`, if any. */
export async function latestAttempt(
  trx: Trx,
  transactionId: string,
  channel: Channel,
  statuses: AttemptStatus[],
) {
  return trx
    .selectFrom("charge_attempts")
    .selectAll()
    .where("transaction_id", "=", transactionId)
    .where("channel", "=", channel)
    .where("status", "in", statuses)
    .orderBy("created_at", "desc")
    .limit(1)
    .executeTakeFirst();
}
