import type { Selectable } from "kysely";
import { manageToken } from "@/lib/billing/manage-token";
import { SUBSCRIPTION_MAIL_JOB } from "@/lib/billing/subscription-mail";
import { db } from "@/lib/db/client";
import { type SubscriptionEmailsTable, toMinor } from "@/lib/db/schema";
import { formatMoney } from "@/lib/i18n/format";
import { claimDue } from "@/lib/jobs/claim";
import { type Job, queueJob } from "@/lib/jobs/runner";
import { log } from "@/lib/log";
import { formatAmount } from "@/lib/money/amount";
import type { Currency } from "@/lib/money/currencies";
import { checkoutUrl } from "@/lib/payments/present";
import { afterMailTry } from "@/lib/receipts/outbox";
import { receiptTransport, sendMail } from "@/lib/receipts/transport";
import { renderSubscriptionMail } from "./render-subscription-mail";

type Row = Selectable<SubscriptionEmailsTable>;

/** Send one claimed subscription email through the one mailer (lib/receipts/transport.ts); retried as receipts are. */
export async function sendSubscriptionMail(row: Row): Promise<void> {
  const found = await db()
    .selectFrom("subscriptions")
    .innerJoin("merchants", "merchants.id", "subscriptions.merchant_id")
    .innerJoin("plans", "plans.id", "subscriptions.plan_id")
    .select(["subscriptions.id", "subscriptions.mode", "merchants.business_name", "plans.name as plan_name"])
    .where("subscriptions.id", "=", row.subscription_id)
    .executeTakeFirst();
  const invoice = row.invoice_id
    ? await db().selectFrom("invoices").selectAll().where("id", "=", row.invoice_id).executeTakeFirst()
    : undefined;
  const payment = invoice?.reference
    ? await db()
        .selectFrom("transactions")
        .select(["access_code", "locale"])
        .where("reference", "=", invoice.reference)
        .executeTakeFirst()
    : undefined;
  let outcome: { ok: true } | { ok: false; error: string };
  if (!found) outcome = { ok: false, error: "subscription not found" };
  else {
    const manage = await manageToken(found.id);
    const mail = renderSubscriptionMail({
      kind: row.kind as "payment_failed" | "action_required" | "cancelled",
      merchantName: found.business_name,
      planName: found.plan_name,
      amount: invoice
        ? formatMoney(
            formatAmount(toMinor(invoice.amount_minor), invoice.currency as Currency),
            invoice.currency,
          )
        : null,
      manageUrl: manage.url,
      finishUrl: row.kind === "action_required" && payment ? checkoutUrl(payment.access_code) : null,
      testMode: found.mode === "test",
    });
    try {
      await sendMail(
        { to: row.recipient, ...mail },
        `${row.subscription_id}-${row.kind}-${row.id.slice(0, 8)}`,
      );
      outcome = { ok: true };
    } catch (err) {
      outcome = { ok: false, error: err instanceof Error ? err.message : String(err) };
    }
  }
  const { attempts, set } = afterMailTry(row, outcome, found !== undefined);
  await db()
    .updateTable("subscription_emails")
    .set(set)
    .where("id", "=", row.id)
    .where("status", "=", "sending")
    .execute();
  if (!outcome.ok)
    log.warn("subscription email not sent", { id: row.id, attempt: attempts, error: outcome.error });
}

/** The subscription email relay on the job runner, when a mail transport is configured (as receipts). */
export function subscriptionMailJob(): Job | null {
  if (!receiptTransport()) return null;
  return queueJob<Row>({
    name: SUBSCRIPTION_MAIL_JOB,
    title: "subscription email relay",
    claim: async (limit) => (await claimDue("subscription_emails", { limit, leaseMs: 60_000 })).rows,
    run: sendSubscriptionMail,
    concurrency: 1,
    batch: 1,
    idleMs: 500,
    errorPauseMs: 500,
    describe: (row) => ({ emailId: row.id }),
  });
}
