import { database } from "@/lib/db/client";
import { toMillis } from "@/lib/db/schema";
import type { TransactionRow, Trx } from "@/lib/db/types";
import { newInvoiceId } from "./codes";
import { dunningDaysOf, nextRetryAt } from "./dunning";
import { emitSubscriptionEvent } from "./emit-subscription-event";
import { isInterval, period } from "./periods";
import type { InvoiceRow, SubscriptionRow } from "./present";
import { queueSubscriptionMail } from "./subscription-mail";

/** Read and lock an invoice for the rest of the database transaction (PostgreSQL `FOR UPDATE`). */
export async function lockInvoice(trx: Trx, invoiceId: string): Promise<InvoiceRow | undefined> {
  let query = trx.selectFrom("invoices").selectAll().where("id", "=", invoiceId);
  if (database().dialect === "postgres") query = query.forUpdate();
  return query.executeTakeFirst();
}

/** Read and lock a subscription for the rest of the database transaction. */
export async function lockSubscription(trx: Trx, subscriptionId: string): Promise<SubscriptionRow> {
  let query = trx.selectFrom("subscriptions").selectAll().where("id", "=", subscriptionId);
  if (database().dialect === "postgres") query = query.forUpdate();
  return query.executeTakeFirstOrThrow();
}

/**
 * A payment of an invoice reached its end (lib/payments/state-machine.ts calls this in the same database
 * transaction, whatever decided it: the rail's answer, card reconciliation after a crash, the customer's OTP
 * on the hosted page, the checkout's expiry). Only the invoice's latest charge counts: an older one that ends
 * late changes nothing (and a paid or void invoice stays so).
 */
export async function settleInvoicePayment(trx: Trx, tx: TransactionRow): Promise<void> {
  if (!tx.invoice_id) return;
  const invoice = await lockInvoice(trx, tx.invoice_id);
  if (!invoice || invoice.reference !== tx.reference) return;
  if (invoice.status === "paid" || invoice.status === "void") return;
  if (tx.status === "success") await invoicePaid(trx, invoice, tx);
  else await invoiceFailed(trx, invoice, { transactionId: tx.id });
}

/** The invoice is paid: the subscription is active for its period, and the next period's invoice is made. */
async function invoicePaid(trx: Trx, invoice: InvoiceRow, tx: TransactionRow): Promise<void> {
  const now = Date.now();
  const sub = await lockSubscription(trx, invoice.subscription_id);
  await trx
    .updateTable("invoices")
    .set({ status: "paid", paid_at: now, locked_until: null, updated_at: now })
    .where("id", "=", invoice.id)
    .execute();
  const plan = await trx
    .selectFrom("plans")
    .selectAll()
    .where("id", "=", sub.plan_id)
    .executeTakeFirstOrThrow();
  const paid = sub.invoices_paid + 1;
  const completed = plan.invoice_limit !== null && paid >= plan.invoice_limit;
  const ended = sub.status === "cancelled" || sub.status === "completed";
  await trx
    .updateTable("subscriptions")
    .set({
      invoices_paid: paid,
      status: ended ? sub.status : completed ? "completed" : "active",
      current_period_start: invoice.period_start,
      current_period_end: invoice.period_end,
      // The card that paid is the one charged next (a new card given on the hosted page).
      authorization_id: tx.authorization_id ?? sub.authorization_id,
      updated_at: now,
    })
    .where("id", "=", sub.id)
    .execute();
  const paidInvoice = { ...invoice, status: "paid", paid_at: now };
  await emitSubscriptionEvent(trx, "subscription.renewed", sub.id, paidInvoice, invoice.id);
  if (ended) return;
  if (completed) {
    await emitSubscriptionEvent(trx, "subscription.completed", sub.id, paidInvoice, sub.id);
    return;
  }
  await openNextInvoice(trx, sub, invoice.period_index + 1, plan);
}

/**
 * Make the invoice of period `index` (unique per subscription and period: made once, whoever makes it), due
 * at the period's start on the subscription's clock, for the plan's amount then (a plan's new amount or a new
 * plan applies from the next period).
 */
export async function openNextInvoice(
  trx: Trx,
  sub: SubscriptionRow,
  index: number,
  plan: { amount_minor: InvoiceRow["amount_minor"]; currency: string; interval: string },
): Promise<void> {
  if (!isInterval(plan.interval)) throw new Error(`unknown interval ${plan.interval}`);
  // The periods follow the calendar of the subscription's start, in its plan's interval at the time.
  const { start, end } = period(toMillis(sub.start_at), plan.interval, index);
  const now = Date.now();
  await trx
    .insertInto("invoices")
    .values({
      id: newInvoiceId(),
      subscription_id: sub.id,
      merchant_id: sub.merchant_id,
      mode: sub.mode,
      period_index: index,
      period_start: start,
      period_end: end,
      amount_minor: plan.amount_minor,
      currency: plan.currency,
      status: "pending",
      due_at: start - toMillis(sub.clock_offset_ms),
      locked_until: null,
      attempts: 0,
      reference: null,
      created_at: now,
      updated_at: now,
      paid_at: null,
    })
    .onConflict((oc) => oc.columns(["subscription_id", "period_index"]).doNothing())
    .execute();
}

/**
 * A charge of the invoice failed (declined, abandoned, or not possible: the card was stopped or expired). The
 * subscription is `past_due` and the invoice is tried again on the merchant's next retry day, and the customer
 * is emailed a link to pay with another card; after the last retry day the invoice is void and the
 * subscription `cancelled` (`payment_failed`).
 */
export async function invoiceFailed(
  trx: Trx,
  invoice: InvoiceRow,
  cause: { transactionId: string | null },
): Promise<void> {
  const now = Date.now();
  const sub = await lockSubscription(trx, invoice.subscription_id);
  const offset = toMillis(sub.clock_offset_ms);
  const days = await dunningDaysOf(trx, sub.merchant_id);
  const retryAt = nextRetryAt(toMillis(invoice.period_start), days, now + offset);
  const ended = sub.status === "cancelled" || sub.status === "completed";
  const next: InvoiceRow = {
    ...invoice,
    status: retryAt === null || ended ? "void" : "pending",
    due_at: retryAt === null ? invoice.due_at : retryAt - offset,
    locked_until: null,
    updated_at: now,
  };
  await trx
    .updateTable("invoices")
    .set({ status: next.status, due_at: next.due_at, locked_until: null, updated_at: now })
    .where("id", "=", invoice.id)
    .execute();
  const why = cause.transactionId ?? `${invoice.id}:${invoice.attempts}`;
  await emitSubscriptionEvent(trx, "invoice.payment_failed", sub.id, next, why);
  if (ended) return;
  if (retryAt === null) {
    await trx
      .updateTable("subscriptions")
      .set({ status: "cancelled", cancelled_at: now, cancel_reason: "payment_failed", updated_at: now })
      .where("id", "=", sub.id)
      .execute();
    await emitSubscriptionEvent(trx, "subscription.cancelled", sub.id, next, sub.id);
    await queueSubscriptionMail(trx, {
      kind: "cancelled",
      subscriptionId: sub.id,
      invoiceId: invoice.id,
      key: sub.id,
    });
    return;
  }
  if (sub.status !== "past_due") {
    await trx
      .updateTable("subscriptions")
      .set({ status: "past_due", updated_at: now })
      .where("id", "=", sub.id)
      .execute();
    await emitSubscriptionEvent(trx, "subscription.past_due", sub.id, next, invoice.id);
  }
  await queueSubscriptionMail(trx, {
    kind: "payment_failed",
    subscriptionId: sub.id,
    invoiceId: invoice.id,
    key: why,
  });
}
