import type { InvoiceRow } from "@/lib/billing/present";
import { env } from "@/lib/env";
import { type Job, queueJob } from "@/lib/jobs/runner";
import { claimInvoices } from "./run-due-invoices";
import { runInvoice } from "./run-invoice";

/** The renewal job's name on the job runner (lib/jobs/runner.ts). */
export const RENEWAL_JOB = "subscription-renewals";

/**
 * Renewals and retries (docs/guides/subscriptions.md): a queue job of the one job runner over the `invoices`
 * table. Every process runs it; each due invoice is claimed by exactly one of them (lib/jobs/claim.ts: SKIP
 * LOCKED on PostgreSQL, the write lock on SQLite) and run by runInvoice, whose charge is made once per
 * reference whatever happens to the process. Off with the other sweeps (CHECKOUT_EXPIRY_SWEEP_SECONDS=0).
 */
export function renewalJob(): Job | null {
  if (env().CHECKOUT_EXPIRY_SWEEP_SECONDS === 0) return null;
  const concurrency = env().SUBSCRIPTION_RENEWAL_CONCURRENCY;
  return queueJob<InvoiceRow>({
    name: RENEWAL_JOB,
    title: "subscription renewals",
    claim: (limit) => claimInvoices(limit),
    run: runInvoice,
    concurrency,
    batch: concurrency,
    idleMs: 1_000,
    errorPauseMs: 1_000,
    describe: (invoice) => ({ invoiceId: invoice.id, subscription: invoice.subscription_id }),
  });
}
