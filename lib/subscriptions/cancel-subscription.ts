import { type AuditContext, recordAudit } from "@/lib/audit/record";
import { emitSubscriptionEvent } from "@/lib/billing/emit-subscription-event";
import { presentSubscriptionRow } from "@/lib/billing/load-subscription";
import { lockSubscription } from "@/lib/billing/settle-invoice";
import { AppError } from "@/lib/core/errors";
import { db } from "@/lib/db/client";
import type { Mode } from "@/lib/db/schema";
import { findSubscription } from "./find-subscription";

/**
 * POST /v1/subscriptions/{code}/cancel (and the customer's own page): at once (nothing more is charged, its
 * open invoice is void, subscription.cancelled), or `atPeriodEnd` (it stays as it is until its period ends,
 * then the next period's invoice is void instead of charged and it is cancelled). A subscription that has
 * ended answers 409 `subscription_ended` and nothing changes; asking again for the period's end is a no-op.
 */
export async function cancelSubscription(input: {
  audit?: AuditContext;
  merchantId: string;
  mode: Mode;
  code: string;
  atPeriodEnd: boolean;
}) {
  const found = await findSubscription(input);
  await db()
    .transaction()
    .execute(async (trx) => {
      const sub = await lockSubscription(trx, found.id);
      if (sub.status === "cancelled" || sub.status === "completed") {
        throw new AppError(
          "subscription_ended",
          `Subscription ${sub.id} is already ${sub.status}; nothing was changed.`,
        );
      }
      if (input.audit) await recordAudit(trx, input.audit, "subscription.cancel", sub.id);
      const now = Date.now();
      // Past due, nothing is paid for the period: ending "at its end" would still charge it, so it ends now.
      if (input.atPeriodEnd && sub.status !== "past_due") {
        if (sub.cancel_at_period_end === 1) return;
        await trx
          .updateTable("subscriptions")
          .set({ cancel_at_period_end: 1, updated_at: now })
          .where("id", "=", sub.id)
          .execute();
        return;
      }
      await trx
        .updateTable("subscriptions")
        .set({ status: "cancelled", cancelled_at: now, cancel_reason: "requested", updated_at: now })
        .where("id", "=", sub.id)
        .execute();
      // An invoice being charged right now is left to its charge (its payment's end settles it, the
      // subscription staying cancelled); the others are void.
      await trx
        .updateTable("invoices")
        .set({ status: "void", locked_until: null, updated_at: now })
        .where("subscription_id", "=", sub.id)
        .where("status", "=", "pending")
        .execute();
      await emitSubscriptionEvent(trx, "subscription.cancelled", sub.id, null, sub.id);
    });
  return presentSubscriptionRow(await findSubscription(input));
}
