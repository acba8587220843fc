import type { Selectable } from "kysely";
import { db } from "@/lib/db/client";
import { type ReceiptsTable, toMillis, toMinor } from "@/lib/db/schema";
import type { TransactionRow, Trx } from "@/lib/db/types";
import { claimDue } from "@/lib/jobs/claim";
import { type Job, queueJob, wakeJob } from "@/lib/jobs/runner";
import { log } from "@/lib/log";
import { formatAmount } from "@/lib/money/amount";
import type { Currency } from "@/lib/money/currencies";
import { newId } from "@/lib/security/tokens";
import { renderReceipt } from "./render";
import { receiptTransport, sendMail } from "./transport";

/**
 * Receipts after a successful payment: the customer's (when the payment has an email) and the merchant's
 * copy. They are written to the `receipts` outbox in the same database transaction as the success, so a
 * payment never waits on a mail server and a receipt is never lost to a crash; the relay below sends them in
 * the background, retrying with backoff. Several processes may run the relay on one database: each claims
 * through the job runner's claim (lib/jobs/claim.ts), as the webhook relay does.
 */
type Receipt = Selectable<ReceiptsTable>;

/** Tries per receipt, and the wait before each retry (after the first try fails, the second, …). */
export const RETRY_DELAYS_MS = [10_000, 60_000, 5 * 60_000, 30 * 60_000, 2 * 60 * 60_000];

/**
 * What an outbox email's row becomes after one try (receipts here, subscription notices in
 * lib/subscriptions/subscription-mail-job.ts): sent; or pending again after the next of RETRY_DELAYS_MS while
 * `mayRetry` and tries are left; else failed. The caller writes it where the row is still `sending`.
 */
export function afterMailTry<D>(
  row: { attempts: number; due_at: D },
  outcome: { ok: true } | { ok: false; error: string },
  mayRetry: boolean,
  now = Date.now(),
) {
  const attempts = row.attempts + 1;
  const delay = RETRY_DELAYS_MS[attempts - 1];
  const retry = !outcome.ok && mayRetry && delay !== undefined;
  const set = outcome.ok
    ? { status: "sent" as const, attempts, locked_until: null, error: null, sent_at: now }
    : {
        status: retry ? ("pending" as const) : ("failed" as const),
        attempts,
        locked_until: null,
        error: outcome.error.slice(0, 500),
        due_at: retry ? now + (delay ?? 0) : row.due_at,
      };
  return { attempts, retry, set };
}
const LOCK_MS = 60_000;
const BATCH = 16;
const IDLE_POLL_MS = 500;

/** The receipt relay's name on the job runner (lib/jobs/runner.ts). */
export const RECEIPT_RELAY_JOB = "receipt-relay";

/** Queue the receipts of a payment that just succeeded (inside its database transaction). Idempotent. */
export async function enqueueReceipts(trx: Trx, tx: TransactionRow, attemptId: string | null): Promise<void> {
  if (!receiptTransport()) return;
  const merchant = await trx
    .selectFrom("merchants")
    .select("email")
    .where("id", "=", tx.merchant_id)
    .executeTakeFirst();
  const now = Date.now();
  const rows = [
    ...(tx.email ? [{ kind: "customer", recipient: tx.email }] : []),
    ...(merchant?.email ? [{ kind: "merchant", recipient: merchant.email }] : []),
  ].map((r) => ({
    id: newId(),
    transaction_id: tx.id,
    attempt_id: attemptId,
    kind: r.kind,
    recipient: r.recipient,
    status: "pending",
    attempts: 0,
    due_at: now,
    locked_until: null,
    error: null,
    created_at: now,
    sent_at: null,
  }));
  if (rows.length === 0) return;
  await trx
    .insertInto("receipts")
    .values(rows)
    .onConflict((oc) => oc.columns(["transaction_id", "kind"]).doNothing())
    .execute();
  // Sent once the payment has committed: the relay's next pass (woken now, in this process) claims them.
  setTimeout(() => wakeJob(RECEIPT_RELAY_JOB), 50).unref?.();
}

/** Claim due receipts for this relay (each goes to exactly one relay until its lock runs out). */
export async function claimReceipts(now = Date.now(), limit = BATCH): Promise<Receipt[]> {
  const { rows } = await claimDue("receipts", { now, limit, leaseMs: LOCK_MS });
  return rows;
}

/** How the payment was made, in words and without card digits: "Visa card", "Access Bank", "Bank transfer". */
function paidWith(channel: string | null, details: Record<string, unknown> | null): string | null {
  if (channel === "card") {
    const brand = typeof details?.brand === "string" ? details.brand : null;
    const name = brand && brand !== "unknown" ? brand[0]?.toUpperCase() + brand.slice(1) : null;
    return name ? `${name === "Amex" ? "American Express" : name} card` : "Card";
  }
  if ((channel === "bank_payment" || channel === "ussd") && typeof details?.bankName === "string")
    return channel === "ussd" ? `USSD, ${details.bankName}` : `Bank payment, ${details.bankName}`;
  return null;
}

/** Send one claimed receipt and record the outcome; a failure is retried later, then given up on. */
export async function sendReceipt(receipt: Receipt): Promise<boolean> {
  const tx = await db()
    .selectFrom("transactions")
    .innerJoin("merchants", "merchants.id", "transactions.merchant_id")
    .selectAll("transactions")
    .select("merchants.business_name as merchant_name")
    .where("transactions.id", "=", receipt.transaction_id)
    .executeTakeFirst();
  const attempt = receipt.attempt_id
    ? await db()
        .selectFrom("charge_attempts")
        .select("details")
        .where("id", "=", receipt.attempt_id)
        .executeTakeFirst()
    : undefined;
  let outcome: { ok: true; where: string } | { ok: false; error: string };
  if (tx?.status !== "success" || tx.total_minor === null || tx.paid_at === null) {
    outcome = { ok: false, error: "payment not found or not successful" };
  } else {
    const currency = tx.currency as Currency;
    const money = (v: NonNullable<typeof tx.total_minor>) => formatAmount(toMinor(v), currency);
    const mail = renderReceipt({
      kind: receipt.kind === "merchant" ? "merchant" : "customer",
      merchantName: tx.merchant_name,
      reference: tx.reference,
      currency,
      amount: money(tx.amount_minor),
      total: money(tx.total_minor),
      channel: tx.channel,
      paidWith: paidWith(
        tx.channel,
        attempt ? (JSON.parse(attempt.details) as Record<string, unknown>) : null,
      ),
      paidAt: new Date(toMillis(tx.paid_at)),
      description: tx.description,
      customerEmail: tx.email,
      customerName: tx.customer_name,
      amountSettled: tx.amount_settled_minor === null ? null : money(tx.amount_settled_minor),
      testMode: tx.mode === "test",
    });
    try {
      const sent = await sendMail({ to: receipt.recipient, ...mail }, `${tx.reference}-${receipt.kind}`);
      outcome = { ok: true, where: sent.where };
    } catch (err) {
      outcome = { ok: false, error: err instanceof Error ? err.message : String(err) };
    }
  }
  const { attempts, retry, set } = afterMailTry(receipt, outcome, tx?.status === "success");
  await db()
    .updateTable("receipts")
    .set(set)
    .where("id", "=", receipt.id)
    .where("status", "=", "sending")
    .execute();
  if (outcome.ok)
    log.info("receipt sent", { reference: tx?.reference, kind: receipt.kind, to: outcome.where });
  else
    log.warn("receipt not sent", { receiptId: receipt.id, attempt: attempts, retry, error: outcome.error });
  return outcome.ok;
}

/**
 * The receipt relay as a job on the runner, when a mail transport is configured: one receipt at a time per
 * process (receipts are few, and a slow mail server is not hammered), a look every 500 ms when idle (a
 * payment's receipts wake it at once). A receipt whose send died with its process is claimed again after
 * its lock (60 s).
 */
export function receiptRelayJob(): Job | null {
  if (!receiptTransport()) return null;
  return queueJob<Receipt>({
    name: RECEIPT_RELAY_JOB,
    title: "receipt relay",
    claim: (limit) => claimReceipts(Date.now(), limit),
    run: sendReceipt,
    concurrency: 1,
    batch: 1,
    idleMs: IDLE_POLL_MS,
    errorPauseMs: IDLE_POLL_MS,
    describe: (receipt) => ({ receiptId: receipt.id }),
  });
}
