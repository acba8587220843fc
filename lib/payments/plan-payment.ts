import type { Kysely } from "kysely";
import { findPlan } from "@/lib/billing/find-plan";
import { AppError, invalidField } from "@/lib/core/errors";
import type { Database, Mode } from "@/lib/db/schema";
import { toMinor } from "@/lib/db/schema";
import { formatAmount, parseAmount } from "@/lib/money/amount";
import type { Currency } from "@/lib/money/currencies";
import type { InitializeInput } from "./schemas";

/**
 * Initialize with `plan`: the payment becomes the plan's first period, its amount and currency (what the
 * request gave of them must be the plan's: 400 naming `amount` or `currency`), its card saved as the payment's
 * terms (`saveCard: "required"`). Refused: a plan unknown or of another merchant or mode (404
 * `plan_not_found`), deactivated (409 `plan_inactive`), or with a free trial (400 naming `plan`: a trial starts
 * from POST /v1/subscriptions). Without `plan`, the payment as it was asked.
 */
export async function planPayment(
  executor: Kysely<Database>,
  scope: { merchantId: string; mode: Mode },
  payment: InitializeInput,
): Promise<{ payment: InitializeInput; planId: string | null }> {
  const asked = payment.plan;
  if (!asked) return { payment, planId: null };
  const plan = await findPlan({ ...scope, code: asked.code }, executor);
  if (plan.active !== 1)
    throw new AppError("plan_inactive", `plan: ${plan.id} is deactivated; it takes no new subscriptions.`);
  if (plan.trial_days > 0)
    throw invalidField(
      "plan",
      "has_trial",
      `plan ${plan.id} has a free trial of ${plan.trial_days} days; start its subscriptions with POST /v1/subscriptions`,
    );
  const currency = plan.currency as Currency;
  if (asked.currency !== undefined && asked.currency !== currency)
    throw invalidField("currency", "plan_currency", `currency must be the plan's, ${currency}`);
  const amountMinor = toMinor(plan.amount_minor);
  const planAmount = formatAmount(amountMinor, currency);
  if (asked.amount !== undefined) {
    const given = parseAmount(asked.amount, currency);
    if (!given.ok) throw invalidField("amount", "invalid_format", `amount ${given.reason}`);
    if (given.minor !== amountMinor)
      throw invalidField("amount", "plan_amount", `amount must be the plan's, ${planAmount} ${currency}`);
  }
  return {
    payment: {
      ...payment,
      amountMinor,
      currency,
      saveCard: "required",
      description: payment.description ?? plan.name,
    },
    planId: plan.id,
  };
}
