import { type AuditContext, recordAudit } from "@/lib/audit/record";
import { newSubscriptionCode } from "@/lib/billing/codes";
import { emitSubscriptionEvent } from "@/lib/billing/emit-subscription-event";
import { findPlan } from "@/lib/billing/find-plan";
import { presentSubscriptionRow } from "@/lib/billing/load-subscription";
import { isInterval, period } from "@/lib/billing/periods";
import { openNextInvoice } from "@/lib/billing/settle-invoice";
import { AppError } from "@/lib/core/errors";
import { authorizationStatus } from "@/lib/customers/authorization-status";
import { findAuthorization } from "@/lib/customers/find-authorization";
import { db } from "@/lib/db/client";
import type { Mode } from "@/lib/db/schema";
import { runDueInvoices } from "./run-due-invoices";
import type { CreateSubscriptionInput } from "./schemas";

const DAY_MS = 86_400_000;

/**
 * POST /v1/subscriptions: subscribe a customer to a plan with one of their saved cards. The first period
 * starts at `startAt` (now by default; after the plan's trial, if it has one) and its invoice is charged then,
 * through the renewal path (runDueInvoices): at once when it starts now, so the answer says whether the
 * first charge went through (`active`) or not (`past_due`, tried again on the merchant's retry days).
 * Refused before anything is written: a plan, customer or card not the merchant's in this mode (404), a card
 * of another customer (404 `authorization_not_found`), a stopped or expired card (409
 * `authorization_inactive`), a deactivated plan (409 `plan_inactive`).
 */
export async function createSubscription(input: {
  audit?: AuditContext;
  merchantId: string;
  mode: Mode;
  body: CreateSubscriptionInput;
}) {
  const scope = { merchantId: input.merchantId, mode: input.mode };
  const plan = await findPlan({ ...scope, code: input.body.plan });
  if (plan.active !== 1)
    throw new AppError("plan_inactive", `plan: ${plan.id} is deactivated; it takes no new subscriptions.`);
  const customer = await db()
    .selectFrom("customers")
    .selectAll()
    .where("id", "=", input.body.customer)
    .where("merchant_id", "=", input.merchantId)
    .where("mode", "=", input.mode)
    .executeTakeFirst();
  if (!customer)
    throw new AppError(
      "customer_not_found",
      `customer: no customer ${input.body.customer} in ${input.mode} mode.`,
    );
  const authorization = await findAuthorization({ ...scope, code: input.body.authorizationCode });
  if (authorization.customer_id !== customer.id) {
    throw new AppError(
      "authorization_not_found",
      `authorizationCode: ${authorization.id} is not a saved card of customer ${customer.id}.`,
    );
  }
  if (authorizationStatus(authorization) !== "active") {
    throw new AppError(
      "authorization_inactive",
      `authorizationCode: ${authorization.id} is ${authorizationStatus(authorization)}; it cannot be charged.`,
    );
  }
  if (!isInterval(plan.interval)) throw new Error(`unknown interval ${plan.interval}`);
  const now = Date.now();
  const requested = input.body.startAt ? Math.max(now, Date.parse(input.body.startAt)) : now;
  const trialEnd = plan.trial_days > 0 ? requested + plan.trial_days * DAY_MS : null;
  const startAt = trialEnd ?? requested;
  const first = period(startAt, plan.interval, 0);
  const row = {
    id: newSubscriptionCode(),
    merchant_id: input.merchantId,
    mode: input.mode,
    customer_id: customer.id,
    plan_id: plan.id,
    authorization_id: authorization.id,
    status: trialEnd ? "trialing" : "active",
    start_at: startAt,
    trial_end_at: trialEnd,
    // In a trial the current period is the trial; else the first paid period (charged at its start).
    current_period_start: trialEnd ? requested : first.start,
    current_period_end: trialEnd ? trialEnd : first.end,
    cancel_at_period_end: 0,
    invoices_paid: 0,
    clock_offset_ms: 0,
    created_at: now,
    updated_at: now,
    cancelled_at: null,
    cancel_reason: null,
  };
  await db()
    .transaction()
    .execute(async (trx) => {
      await trx.insertInto("subscriptions").values(row).execute();
      await openNextInvoice(trx, row, 0, plan);
      await emitSubscriptionEvent(trx, "subscription.created", row.id, null, row.id);
      if (input.audit) await recordAudit(trx, input.audit, "subscription.create", row.id, now);
    });
  if (startAt <= Date.now()) await runDueInvoices({ subscriptionId: row.id });
  const saved = await db()
    .selectFrom("subscriptions")
    .selectAll()
    .where("id", "=", row.id)
    .executeTakeFirstOrThrow();
  return presentSubscriptionRow(saved);
}
