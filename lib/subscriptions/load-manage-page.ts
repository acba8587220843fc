import { dueInvoiceOf, presentSubscriptionRow } from "@/lib/billing/load-subscription";
import { manageToken, readManageToken } from "@/lib/billing/manage-token";
import { db } from "@/lib/db/client";
import { toMinor } from "@/lib/db/schema";
import { formatAmount } from "@/lib/money/amount";
import type { Currency } from "@/lib/money/currencies";

/**
 * The customer's own page of a subscription (`/subscriptions/manage/{token}`): the subscription its token
 * opens (null for a token that is malformed, forged or expired), its merchant's name, and what is overdue.
 */
export async function loadManagePage(token: string) {
  const subscriptionId = await readManageToken(token);
  if (!subscriptionId) return null;
  const row = await db()
    .selectFrom("subscriptions")
    .selectAll()
    .where("id", "=", subscriptionId)
    .executeTakeFirst();
  if (!row) return null;
  const merchant = await db()
    .selectFrom("merchants")
    .select(["business_name", "brand_color"])
    .where("id", "=", row.merchant_id)
    .executeTakeFirstOrThrow();
  const due = await dueInvoiceOf(db(), row.id);
  return {
    subscription: await presentSubscriptionRow(row),
    merchantName: merchant.business_name,
    testMode: row.mode === "test",
    /** The overdue amount while past due (what paying with another card pays now). */
    overdue:
      row.status === "past_due" && due
        ? {
            amount: formatAmount(toMinor(due.amount_minor), due.currency as Currency),
            currency: due.currency,
          }
        : null,
  };
}

/** A fresh link to the same page (the hosted checkout returns the customer there). */
export async function manageUrlOf(subscriptionId: string) {
  return (await manageToken(subscriptionId)).url;
}
