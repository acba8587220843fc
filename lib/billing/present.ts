import type { Selectable } from "kysely";
import type { AuthorizationRow } from "@/lib/customers/authorization-status";
import { presentAuthorization } from "@/lib/customers/present";
import {
  type CustomersTable,
  type InvoicesTable,
  type PlansTable,
  type SubscriptionsTable,
  toMillis,
  toMinor,
} from "@/lib/db/schema";
import { formatAmount } from "@/lib/money/amount";
import type { Currency } from "@/lib/money/currencies";
import { invoiceStatus } from "./subscription-status";

export type PlanRow = Selectable<PlansTable>;
export type SubscriptionRow = Selectable<SubscriptionsTable>;
export type InvoiceRow = Selectable<InvoicesTable>;

const iso = (value: number | string | bigint) => new Date(toMillis(value)).toISOString();
const money = (minor: number | string | bigint, currency: string) =>
  formatAmount(toMinor(minor), currency as Currency);

/** A plan (docs/guides/subscriptions.md "Plan"). */
export function presentPlan(row: PlanRow) {
  return {
    code: row.id,
    name: row.name,
    amount: money(row.amount_minor, row.currency),
    currency: row.currency,
    interval: row.interval,
    description: row.description,
    trialDays: row.trial_days,
    invoiceLimit: row.invoice_limit,
    active: row.active === 1,
    createdAt: iso(row.created_at),
  };
}

/** An invoice: its period on the subscription's clock; `nextAttemptAt` too (null once nothing is due). */
export function presentInvoice(row: InvoiceRow, clockOffsetMs: number) {
  const open = row.status === "pending";
  return {
    id: row.id,
    periodStart: iso(row.period_start),
    periodEnd: iso(row.period_end),
    amount: money(row.amount_minor, row.currency),
    currency: row.currency,
    status: invoiceStatus(row.status),
    attempts: row.attempts,
    nextAttemptAt: open ? iso(toMillis(row.due_at) + clockOffsetMs) : null,
    reference: row.reference,
    paidAt: row.paid_at === null ? null : iso(row.paid_at),
  };
}

/**
 * A subscription (docs/guides/subscriptions.md "Subscription"). `nextChargeAt` is when its open invoice is
 * charged next (the renewal, or the next retry while past due); null once it has ended or will end at the
 * period's end.
 */
export function presentSubscription(parts: {
  row: SubscriptionRow;
  plan: PlanRow;
  customer: Pick<Selectable<CustomersTable>, "id" | "email">;
  authorization: AuthorizationRow | null;
  /** Its invoice that is still to be charged, if any. */
  due: InvoiceRow | null;
}) {
  const { row, plan } = parts;
  const offset = toMillis(row.clock_offset_ms);
  const ended = row.status === "cancelled" || row.status === "completed";
  const nextChargeAt =
    ended || !parts.due || (row.cancel_at_period_end === 1 && row.status !== "past_due")
      ? null
      : iso(toMillis(parts.due.due_at) + offset);
  return {
    code: row.id,
    customer: { code: parts.customer.id, email: parts.customer.email },
    plan: {
      code: plan.id,
      name: plan.name,
      amount: money(plan.amount_minor, plan.currency),
      currency: plan.currency,
      interval: plan.interval,
    },
    authorization: parts.authorization ? presentAuthorization(parts.authorization) : null,
    status: row.status,
    currentPeriodStart: iso(row.current_period_start),
    currentPeriodEnd: iso(row.current_period_end),
    nextChargeAt,
    cancelAtPeriodEnd: row.cancel_at_period_end === 1,
    invoicesPaid: row.invoices_paid,
    trialEndsAt: row.trial_end_at === null ? null : iso(row.trial_end_at),
    createdAt: iso(row.created_at),
    cancelledAt: row.cancelled_at === null ? null : iso(row.cancelled_at),
    cancelReason: row.cancel_reason,
  };
}

export type PresentedSubscription = ReturnType<typeof presentSubscription>;
export type PresentedInvoice = ReturnType<typeof presentInvoice>;
