import type { Trx } from "@/lib/db/types";
import { wakeJob } from "@/lib/jobs/runner";
import { receiptTransport } from "@/lib/receipts/transport";
import { newId } from "@/lib/security/tokens";

/** The subscription email relay's name on the job runner (lib/subscriptions/subscription-mail-job.ts). */
export const SUBSCRIPTION_MAIL_JOB = "subscription-mail";

export type SubscriptionMailKind = "payment_failed" | "action_required" | "cancelled";

/**
 * Queue an email to the subscription's customer inside the caller's database transaction (the outbox
 * `subscription_emails`, sent in the background like receipts): one per `key` and kind, whoever queues it.
 */
export async function queueSubscriptionMail(
  trx: Trx,
  mail: { kind: SubscriptionMailKind; subscriptionId: string; invoiceId: string | null; key: string },
): Promise<void> {
  // Without a way to send mail here, nothing is queued (as receipts).
  if (!receiptTransport()) return;
  const customer = await trx
    .selectFrom("subscriptions")
    .innerJoin("customers", "customers.id", "subscriptions.customer_id")
    .select("customers.email")
    .where("subscriptions.id", "=", mail.subscriptionId)
    .executeTakeFirst();
  if (!customer) return;
  const now = Date.now();
  await trx
    .insertInto("subscription_emails")
    .values({
      id: newId(),
      subscription_id: mail.subscriptionId,
      invoice_id: mail.invoiceId,
      kind: mail.kind,
      dedupe_key: `${mail.kind}:${mail.key}`,
      recipient: customer.email,
      status: "pending",
      attempts: 0,
      due_at: now,
      locked_until: null,
      error: null,
      created_at: now,
      sent_at: null,
    })
    .onConflict((oc) => oc.column("dedupe_key").doNothing())
    .execute();
  setTimeout(() => wakeJob(SUBSCRIPTION_MAIL_JOB), 50).unref?.();
}
