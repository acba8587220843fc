import { type AuditContext, recordAudit } from "@/lib/audit/record";
import { findPlan } from "@/lib/billing/find-plan";
import { presentPlan } from "@/lib/billing/present";
import { invalidField } from "@/lib/core/errors";
import { db } from "@/lib/db/client";
import type { Mode } from "@/lib/db/schema";
import { parseAmount } from "@/lib/money/amount";
import type { Currency } from "@/lib/money/currencies";
import type { PlanPatch } from "./schemas";

/**
 * PATCH /v1/plans/{code}: a new name, description, amount or `active`. A new amount applies from each
 * subscription's next period (an invoice already made keeps its amount); a deactivated plan takes no new
 * subscriptions and its existing ones go on. The currency and interval are the plan's for good.
 */
export async function updatePlan(input: {
  merchantId: string;
  mode: Mode;
  code: string;
  patch: PlanPatch;
  audit?: AuditContext;
}) {
  const plan = await findPlan(input);
  const { patch } = input;
  let amountMinor: bigint | undefined;
  if (patch.amount !== undefined) {
    const parsed = parseAmount(patch.amount, plan.currency as Currency);
    if (!parsed.ok) throw invalidField("amount", parsed.rule, `amount ${parsed.reason}`);
    amountMinor = parsed.minor;
  }
  const now = Date.now();
  await db()
    .transaction()
    .execute(async (trx) => {
      await trx
        .updateTable("plans")
        .set({
          ...(patch.name !== undefined ? { name: patch.name } : {}),
          ...(patch.description !== undefined ? { description: patch.description } : {}),
          ...(amountMinor !== undefined ? { amount_minor: amountMinor } : {}),
          ...(patch.active !== undefined ? { active: patch.active ? 1 : 0 } : {}),
          updated_at: now,
        })
        .where("id", "=", plan.id)
        .execute();
      if (input.audit) await recordAudit(trx, input.audit, "plan.update", plan.id, now);
    });
  return presentPlan(await findPlan(input));
}
