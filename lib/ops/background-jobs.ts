import { checkoutExpiryJob } from "@/lib/channels/abandon-expired";
import { cardReconciliationJob } from "@/lib/channels/reconcile-cards";
import type { Job } from "@/lib/jobs/runner";
import { receiptRelayJob } from "@/lib/receipts/outbox";
import { refundSettlementJob } from "@/lib/refunds/settle-refund";
import { renewalJob } from "@/lib/subscriptions/renewal-job";
import { subscriptionMailJob } from "@/lib/subscriptions/subscription-mail-job";
import { webhookRelayJob } from "@/lib/webhooks/relay";

/**
 * The background jobs a process runs on lib/jobs/runner.ts: the webhook relay and the receipt relay when
 * `relays` (WEBHOOK_RELAY in a server process, always in `npm run worker`), and the recurring sweeps (checkout
 * expiry, card reconciliation, refund settlement, subscription renewals) unless CHECKOUT_EXPIRY_SWEEP_SECONDS is 0.
 */
export function backgroundJobs(options: { relays: boolean }): Job[] {
  const jobs = [
    ...(options.relays ? [webhookRelayJob(), receiptRelayJob(), subscriptionMailJob()] : []),
    cardReconciliationJob(),
    checkoutExpiryJob(),
    refundSettlementJob(),
    renewalJob(),
  ];
  return jobs.filter((job): job is Job => job !== null);
}
