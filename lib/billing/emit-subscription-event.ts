import { toMinor } from "@/lib/db/schema";
import type { Trx } from "@/lib/db/types";
import { formatAmount } from "@/lib/money/amount";
import type { Currency } from "@/lib/money/currencies";
import type { EventType } from "@/lib/webhooks/event-types";
import { recordEvent } from "@/lib/webhooks/record-event";
import { presentSubscriptionRow } from "./load-subscription";
import { type InvoiceRow, presentInvoice, type SubscriptionRow } from "./present";

/**
 * A subscription event into the outbox, in the caller's database transaction (docs/guides/subscriptions.md
 * "Events"). `data` has what every event has (reference: the invoice's latest charge, or the subscription's
 * code before any; amount and currency: the invoice's, or the plan's; status: the subscription's), with the
 * subscription as it now stands and the invoice concerned (null for none). `cause` makes it once.
 */
export async function emitSubscriptionEvent(
  trx: Trx,
  type: EventType,
  subscriptionId: string,
  invoice: InvoiceRow | null,
  cause: string,
): Promise<void> {
  const row: SubscriptionRow = await trx
    .selectFrom("subscriptions")
    .selectAll()
    .where("id", "=", subscriptionId)
    .executeTakeFirstOrThrow();
  const subscription = await presentSubscriptionRow(row, trx);
  const offset = Number(row.clock_offset_ms);
  const amount = invoice
    ? formatAmount(toMinor(invoice.amount_minor), invoice.currency as Currency)
    : subscription.plan.amount;
  await recordEvent(trx, {
    merchantId: row.merchant_id,
    mode: row.mode,
    type,
    reference: invoice?.reference ?? row.id,
    cause,
    data: {
      reference: invoice?.reference ?? row.id,
      amount,
      currency: invoice?.currency ?? subscription.plan.currency,
      status: row.status,
      subscription,
      invoice: invoice ? presentInvoice(invoice, offset) : null,
    },
  });
}
