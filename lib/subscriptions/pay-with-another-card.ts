import { readManageToken } from "@/lib/billing/manage-token";
import { lockInvoice } from "@/lib/billing/settle-invoice";
import { AppError } from "@/lib/core/errors";
import { db } from "@/lib/db/client";
import { toMinor } from "@/lib/db/schema";
import { formatAmount } from "@/lib/money/amount";
import type { Currency } from "@/lib/money/currencies";
import { initializePayment } from "@/lib/payments/initialize-payment";
import { checkoutUrl } from "@/lib/payments/present";
import { InitializeBody } from "@/lib/payments/schemas";
import { isTerminal } from "@/lib/payments/status";
import { manageUrlOf } from "./load-manage-page";

/**
 * The customer pays an overdue invoice with another card from their own page: a hosted checkout of the
 * invoice's amount that saves the card (`saveCard: "required"`, the card channel), made the invoice's latest
 * charge. The invoice waits for it (no retry of the old card meanwhile); its success pays the invoice and makes
 * the new card the subscription's (lib/billing/settle-invoice.ts), its expiry unpaid counts as a failed
 * charge. Asked again while that checkout is open, it answers the same checkout. Only a past-due
 * subscription's token can do this (409 `invalid_state` otherwise).
 */
export async function payWithAnotherCard(input: { token: string; locale: string | null }): Promise<string> {
  const subscriptionId = await readManageToken(input.token);
  if (!subscriptionId) throw new AppError("invalid_state", "This link has expired.");
  const sub = await db()
    .selectFrom("subscriptions")
    .selectAll()
    .where("id", "=", subscriptionId)
    .executeTakeFirstOrThrow();
  if (sub.status !== "past_due")
    throw new AppError("invalid_state", "Nothing is overdue on this subscription.");
  const invoice = await db()
    .selectFrom("invoices")
    .selectAll()
    .where("subscription_id", "=", sub.id)
    .where("status", "in", ["pending", "waiting"])
    .orderBy("period_index")
    .limit(1)
    .executeTakeFirst();
  if (!invoice) throw new AppError("invalid_state", "Nothing is overdue on this subscription.");
  const open = await openCheckoutOf(invoice.reference);
  if (invoice.status === "waiting" && open) return open;
  const customer = await db()
    .selectFrom("customers")
    .select("email")
    .where("id", "=", sub.customer_id)
    .executeTakeFirstOrThrow();
  const session = await initializePayment({
    merchantId: sub.merchant_id,
    mode: sub.mode,
    payment: InitializeBody.parse({
      amount: formatAmount(toMinor(invoice.amount_minor), invoice.currency as Currency),
      currency: invoice.currency,
      email: customer.email,
      saveCard: "required",
      callbackUrl: await manageUrlOf(sub.id),
      ...(input.locale ? { locale: input.locale } : {}),
    }),
  });
  const linked = await db()
    .transaction()
    .execute(async (trx) => {
      const now = await lockInvoice(trx, invoice.id);
      // The renewal job took it meanwhile: its charge of the old card decides; this checkout is not used.
      if (now?.status !== "pending") return false;
      await trx
        .updateTable("transactions")
        .set({ invoice_id: invoice.id, subscription_id: sub.id })
        .where("reference", "=", session.reference)
        .execute();
      await trx
        .updateTable("invoices")
        .set({
          status: "waiting",
          reference: session.reference,
          attempts: now.attempts + 1,
          locked_until: null,
          updated_at: Date.now(),
        })
        .where("id", "=", invoice.id)
        .execute();
      return true;
    });
  if (!linked)
    throw new AppError(
      "invalid_state",
      "A payment of this subscription is under way; try again in a minute.",
    );
  return session.checkoutUrl;
}

/** The checkout of a reference while it can still be paid, or null. */
async function openCheckoutOf(reference: string | null): Promise<string | null> {
  if (!reference) return null;
  const tx = await db()
    .selectFrom("transactions")
    .select(["status", "access_code", "access_expires_at", "merchant_initiated"])
    .where("reference", "=", reference)
    .executeTakeFirst();
  if (
    !tx ||
    tx.merchant_initiated === 1 ||
    isTerminal(tx.status) ||
    Number(tx.access_expires_at) <= Date.now()
  )
    return null;
  return checkoutUrl(tx.access_code);
}
