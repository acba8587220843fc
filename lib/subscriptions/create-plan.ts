import { type AuditContext, recordAudit } from "@/lib/audit/record";
import { newPlanCode } from "@/lib/billing/codes";
import { presentPlan } from "@/lib/billing/present";
import { db } from "@/lib/db/client";
import type { Mode } from "@/lib/db/schema";
import type { CreatePlanInput } from "./schemas";

/** POST /v1/plans: a plan of the merchant in this mode (docs/guides/subscriptions.md). */
export async function createPlan(input: {
  merchantId: string;
  mode: Mode;
  plan: CreatePlanInput;
  audit?: AuditContext;
}) {
  const now = Date.now();
  const row = {
    id: newPlanCode(),
    merchant_id: input.merchantId,
    mode: input.mode,
    name: input.plan.name,
    description: input.plan.description,
    amount_minor: input.plan.amountMinor,
    currency: input.plan.currency,
    interval: input.plan.interval,
    trial_days: input.plan.trialDays,
    invoice_limit: input.plan.invoiceLimit,
    active: 1,
    created_at: now,
    updated_at: now,
  };
  await db()
    .transaction()
    .execute(async (trx) => {
      await trx.insertInto("plans").values(row).execute();
      if (input.audit) await recordAudit(trx, input.audit, "plan.create", row.id, now);
    });
  return presentPlan(row);
}
