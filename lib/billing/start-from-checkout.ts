import { toMillis } from "@/lib/db/schema";
import type { TransactionRow, Trx } from "@/lib/db/types";
import { newInvoiceId, newSubscriptionCode } from "./codes";
import { emitSubscriptionEvent } from "./emit-subscription-event";
import { isInterval, period } from "./periods";
import type { InvoiceRow, SubscriptionRow } from "./present";
import { openNextInvoice } from "./settle-invoice";

/**
 * A payment from initialize with `plan` succeeded (lib/payments/state-machine.ts calls this in the database
 * transaction that completes it): its customer's subscription to the plan starts now, with the card the
 * payment saved, and the first period is the one this payment paid (its invoice, paid, names the payment's
 * reference). Exactly once: the payment's row is claimed first (its `subscription_id` set only where it is
 * still empty), so an end applied twice (the rail's answer and reconciliation, a webhook and the poll) starts
 * one subscription. The next period's invoice is made for the renewal job.
 */
export async function startSubscriptionFromCheckout(trx: Trx, tx: TransactionRow): Promise<void> {
  if (!tx.plan_id || !tx.customer_id) return;
  const subscriptionId = newSubscriptionCode();
  const invoiceId = newInvoiceId();
  const claimed = await trx
    .updateTable("transactions")
    .set({ subscription_id: subscriptionId, invoice_id: invoiceId })
    .where("id", "=", tx.id)
    .where("subscription_id", "is", null)
    .executeTakeFirst();
  if (Number(claimed.numUpdatedRows) !== 1) return;
  const plan = await trx
    .selectFrom("plans")
    .selectAll()
    .where("id", "=", tx.plan_id)
    .executeTakeFirstOrThrow();
  if (!isInterval(plan.interval)) throw new Error(`unknown interval ${plan.interval}`);
  // The card this payment saved (kept before the payment completed; re-read, the caller's row may predate it).
  const saved = await trx
    .selectFrom("transactions")
    .select("authorization_id")
    .where("id", "=", tx.id)
    .executeTakeFirstOrThrow();
  const now = Date.now();
  const first = period(now, plan.interval, 0);
  const completed = plan.invoice_limit !== null && plan.invoice_limit <= 1;
  const sub: SubscriptionRow = {
    id: subscriptionId,
    merchant_id: tx.merchant_id,
    mode: tx.mode,
    customer_id: tx.customer_id,
    plan_id: plan.id,
    authorization_id: saved.authorization_id,
    status: completed ? "completed" : "active",
    start_at: now,
    trial_end_at: null,
    current_period_start: first.start,
    current_period_end: first.end,
    cancel_at_period_end: 0,
    invoices_paid: 1,
    clock_offset_ms: 0,
    created_at: now,
    updated_at: now,
    cancelled_at: null,
    cancel_reason: null,
  };
  await trx.insertInto("subscriptions").values(sub).execute();
  const invoice: InvoiceRow = {
    id: invoiceId,
    subscription_id: sub.id,
    merchant_id: sub.merchant_id,
    mode: sub.mode,
    period_index: 0,
    period_start: first.start,
    period_end: first.end,
    // What the customer paid for this period: the payment's amount (the plan's when it was initialized).
    amount_minor: tx.amount_minor,
    currency: tx.currency,
    status: "paid",
    due_at: first.start,
    locked_until: null,
    attempts: 1,
    reference: tx.reference,
    created_at: now,
    updated_at: now,
    paid_at: toMillis(tx.paid_at ?? now),
  };
  await trx.insertInto("invoices").values(invoice).execute();
  await emitSubscriptionEvent(trx, "subscription.created", sub.id, null, sub.id);
  await emitSubscriptionEvent(trx, "subscription.renewed", sub.id, invoice, invoice.id);
  if (completed) {
    await emitSubscriptionEvent(trx, "subscription.completed", sub.id, invoice, sub.id);
    return;
  }
  await openNextInvoice(trx, sub, 1, plan);
}
