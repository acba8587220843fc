import { type AuditContext, recordAudit } from "@/lib/audit/record";
import { findPlan } from "@/lib/billing/find-plan";
import { dueInvoiceOf, presentSubscriptionRow } from "@/lib/billing/load-subscription";
import { lockSubscription } from "@/lib/billing/settle-invoice";
import { AppError } from "@/lib/core/errors";
import { authorizationStatus } from "@/lib/customers/authorization-status";
import { findAuthorization } from "@/lib/customers/find-authorization";
import { db } from "@/lib/db/client";
import type { Mode } from "@/lib/db/schema";
import { findSubscription } from "./find-subscription";
import { runDueInvoices } from "./run-due-invoices";

/**
 * PATCH /v1/subscriptions/{code}: a new plan from the next period (no proration: the period under way and its
 * invoice stay as they are; the plan must be active, in the same currency and interval), and/or another saved card of
 * the same customer. A new card on a past-due subscription is charged at once for the open invoice. An
 * ended subscription answers 409 `subscription_ended`.
 */
export async function updateSubscription(input: {
  audit?: AuditContext;
  merchantId: string;
  mode: Mode;
  code: string;
  patch: { plan?: string; authorizationCode?: string };
}) {
  const scope = { merchantId: input.merchantId, mode: input.mode };
  const found = await findSubscription(input);
  const plan = input.patch.plan ? await findPlan({ ...scope, code: input.patch.plan }) : null;
  if (plan && plan.active !== 1)
    throw new AppError("plan_inactive", `plan: ${plan.id} is deactivated; it takes no new subscriptions.`);
  if (plan) {
    const current = await findPlan({ ...scope, code: found.plan_id });
    if (current.currency !== plan.currency || current.interval !== plan.interval) {
      throw new AppError(
        "validation_error",
        `plan: ${plan.id} is ${plan.currency} ${plan.interval} and the subscription ${current.currency} ${current.interval}; a new plan must have the same currency and interval (subscribe anew for others).`,
        {},
        [
          {
            field: "plan",
            rule: "invalid_value",
            message: "plan must have the subscription's currency and interval",
          },
        ],
      );
    }
  }
  const card = input.patch.authorizationCode
    ? await findAuthorization({ ...scope, code: input.patch.authorizationCode })
    : null;
  if (card && card.customer_id !== found.customer_id) {
    throw new AppError(
      "authorization_not_found",
      `authorizationCode: ${card.id} is not a saved card of this subscription's customer.`,
    );
  }
  if (card && authorizationStatus(card) !== "active") {
    throw new AppError(
      "authorization_inactive",
      `authorizationCode: ${card.id} is ${authorizationStatus(card)}; it cannot be charged.`,
    );
  }
  const chargeNow = await db()
    .transaction()
    .execute(async (trx) => {
      const sub = await lockSubscription(trx, found.id);
      if (sub.status === "cancelled" || sub.status === "completed") {
        throw new AppError(
          "subscription_ended",
          `Subscription ${sub.id} is already ${sub.status}; nothing was changed.`,
        );
      }
      if (input.audit) await recordAudit(trx, input.audit, "subscription.update", sub.id);
      const now = Date.now();
      await trx
        .updateTable("subscriptions")
        .set({
          ...(plan ? { plan_id: plan.id } : {}),
          ...(card ? { authorization_id: card.id } : {}),
          updated_at: now,
        })
        .where("id", "=", sub.id)
        .execute();
      // The next period's invoice, not yet charged, takes the new plan's amount.
      if (plan) {
        await trx
          .updateTable("invoices")
          .set({ amount_minor: plan.amount_minor, updated_at: now })
          .where("subscription_id", "=", sub.id)
          .where("status", "=", "pending")
          .where("attempts", "=", 0)
          .where("period_start", ">=", sub.current_period_end)
          .execute();
      }
      if (!card || sub.status !== "past_due") return false;
      const due = await dueInvoiceOf(trx, sub.id);
      if (due?.status !== "pending") return false;
      await trx
        .updateTable("invoices")
        .set({ due_at: now, updated_at: now })
        .where("id", "=", due.id)
        .execute();
      return true;
    });
  if (chargeNow) await runDueInvoices({ subscriptionId: found.id });
  return presentSubscriptionRow(await findSubscription(input));
}
