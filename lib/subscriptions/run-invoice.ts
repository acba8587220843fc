import { invoiceReference } from "@/lib/billing/codes";
import { emitSubscriptionEvent } from "@/lib/billing/emit-subscription-event";
import { formatPeriod } from "@/lib/billing/format-period";
import type { InvoiceRow } from "@/lib/billing/present";
import { invoiceFailed, lockInvoice, lockSubscription } from "@/lib/billing/settle-invoice";
import { queueSubscriptionMail } from "@/lib/billing/subscription-mail";
import { chargeAuthorization } from "@/lib/channels/charge-authorization";
import { isAppError } from "@/lib/core/errors";
import { db } from "@/lib/db/client";
import { toMillis } from "@/lib/db/schema";
import type { Currency } from "@/lib/money/currencies";
import { isTerminal } from "@/lib/payments/status";

/** Refusals of a charge that mean this card cannot pay the invoice (nothing was charged): a failed charge. */
const CARD_REFUSALS = new Set(["authorization_not_found", "authorization_inactive", "channel_unavailable"]);

/**
 * Run one claimed invoice (status `charging`, held until `lockedUntil`): the renewal of a period, or a retry.
 *
 *  - The subscription has ended, or is to end with its period and this invoice starts the next one: the
 *    invoice is void (and the subscription `cancelled`, with its event), nothing is charged.
 *  - Else its charge: a payment of the subscription's saved card through charge-authorization (the path of
 *    every charge of a saved card), whose reference is made from the invoice and the attempt's number
 *    (invoiceReference). The number moves on only once the charge before it has ended: a run that died after
 *    starting a charge finds that payment again by its reference on the next claim and never charges twice,
 *    and one the card's network had not answered is decided by card reconciliation (reconcile-cards.ts).
 *  - The payment's end settles the invoice in the same database transaction (lib/billing/settle-invoice.ts,
 *    from the state machine), whoever decides it: paid (the next period's invoice is made) or failed (retried
 *    on the merchant's retry days, or the subscription is cancelled after the last). A payment still open
 *    (the bank asks the customer for an OTP, or the network has not answered) leaves the invoice `waiting`
 *    for it; an OTP asked for emails the customer a link to finish on the hosted page.
 *
 * Every write of the claim is a compare-and-set on (status, locked_until): a run whose lease ran out and was
 * taken over changes nothing the new claimant decides.
 */
export async function runInvoice(claimed: InvoiceRow): Promise<void> {
  const held = claimed.locked_until === null ? null : toMillis(claimed.locked_until);
  const start = await db()
    .transaction()
    .execute(async (trx) => {
      const invoice = await lockInvoice(trx, claimed.id);
      if (!invoice || invoice.status !== "charging" || Number(invoice.locked_until) !== held) return null;
      const sub = await lockSubscription(trx, invoice.subscription_id);
      const now = Date.now();
      const newPeriod = toMillis(invoice.period_start) >= toMillis(sub.current_period_end);
      const ended = sub.status === "cancelled" || sub.status === "completed";
      if (ended || (sub.cancel_at_period_end === 1 && newPeriod && invoice.period_index > 0)) {
        await trx
          .updateTable("invoices")
          .set({ status: "void", locked_until: null, updated_at: now })
          .where("id", "=", invoice.id)
          .execute();
        if (!ended) {
          await trx
            .updateTable("subscriptions")
            .set({ status: "cancelled", cancelled_at: now, cancel_reason: "requested", updated_at: now })
            .where("id", "=", sub.id)
            .execute();
          await emitSubscriptionEvent(trx, "subscription.cancelled", sub.id, null, sub.id);
        }
        return null;
      }
      // The charge under way before (if any): the same one again while it has not ended.
      let attempt = invoice.attempts;
      let reference = invoice.reference;
      const before = reference
        ? await trx
            .selectFrom("transactions")
            .select("status")
            .where("reference", "=", reference)
            .executeTakeFirst()
        : undefined;
      if (!reference || (before && isTerminal(before.status))) {
        attempt = invoice.attempts + 1;
        reference = invoiceReference(invoice.id, attempt);
      }
      await trx
        .updateTable("invoices")
        .set({ attempts: attempt, reference, updated_at: now })
        .where("id", "=", invoice.id)
        .execute();
      // A new period has begun: the subscription is in it (paid or not yet).
      if (newPeriod) {
        await trx
          .updateTable("subscriptions")
          .set({
            current_period_start: invoice.period_start,
            current_period_end: invoice.period_end,
            ...(sub.status === "trialing" ? { status: "active" } : {}),
            updated_at: now,
          })
          .where("id", "=", sub.id)
          .execute();
      }
      const plan = await trx
        .selectFrom("plans")
        .select("name")
        .where("id", "=", sub.plan_id)
        .executeTakeFirstOrThrow();
      return { invoice: { ...invoice, attempts: attempt, reference }, sub, planName: plan.name };
    });
  if (!start) return;
  const { invoice, sub } = start;
  let outcome: Awaited<ReturnType<typeof chargeAuthorization>> | null = null;
  try {
    if (!sub.authorization_id) throw Object.assign(new Error("no card"), { code: "authorization_not_found" });
    outcome = await chargeAuthorization({
      merchantId: sub.merchant_id,
      mode: sub.mode,
      charge: {
        authorizationCode: sub.authorization_id,
        amountMinor: BigInt(invoice.amount_minor),
        currency: invoice.currency as Currency,
        reference: invoice.reference,
        description: `${start.planName}, ${formatPeriod(toMillis(invoice.period_start), toMillis(invoice.period_end))}`,
        metadata: { subscription: sub.id, invoice: invoice.id },
      },
      invoice: { id: invoice.id, subscriptionId: sub.id },
    });
  } catch (err) {
    const code = isAppError(err) ? err.code : (err as { code?: string }).code;
    if (!code || !CARD_REFUSALS.has(code)) throw err;
    // The card cannot pay (stopped, expired, its rail does not take the currency): a failed charge, with
    // nothing charged.
    await db()
      .transaction()
      .execute(async (trx) => {
        const now = await lockInvoice(trx, invoice.id);
        if (now?.status !== "charging" || Number(now.locked_until) !== held) return;
        await invoiceFailed(trx, now, { transactionId: null });
      });
    return;
  }
  if (outcome.status === "success" || outcome.status === "failed") return;
  // Still open: the customer must answer the bank, or the network has not answered yet.
  await db()
    .transaction()
    .execute(async (trx) => {
      const now = await lockInvoice(trx, invoice.id);
      if (now?.status !== "charging" || Number(now.locked_until) !== held) return;
      await trx
        .updateTable("invoices")
        .set({ status: "waiting", locked_until: null, updated_at: Date.now() })
        .where("id", "=", invoice.id)
        .execute();
      if (outcome.status === "requires_action")
        await queueSubscriptionMail(trx, {
          kind: "action_required",
          subscriptionId: sub.id,
          invoiceId: invoice.id,
          key: invoice.reference ?? invoice.id,
        });
    });
}
