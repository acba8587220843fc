import type { InvoiceRow } from "@/lib/billing/present";
import { db } from "@/lib/db/client";
import { claimDue } from "@/lib/jobs/claim";
import { runInvoice } from "./run-invoice";

/** How long a claimed invoice is held: a run that dies with its process is claimed again after it. */
export const INVOICE_LEASE_MS = 60_000;

/** Claim due invoices for this process (each goes to exactly one claimant until its lease runs out). */
export async function claimInvoices(limit: number, ids?: string[]): Promise<InvoiceRow[]> {
  const { rows } = await claimDue("invoices", {
    limit,
    leaseMs: INVOICE_LEASE_MS,
    claimed: "charging",
    ...(ids ? { ids } : {}),
  });
  return rows;
}

/**
 * Run every invoice of one subscription that is due now, oldest first, each claimed like any invoice (so the
 * renewal job of another process never runs one of them at the same time): a subscription's first charge,
 * a new card charged at once, the test clock's renewals and retries. One run can make the next invoice due
 * (the clock moved past several periods), so it looks again until none is due; one another process holds is
 * waited for, up to `waitMs`.
 */
export async function runDueInvoices(input: { subscriptionId: string; waitMs?: number }): Promise<number> {
  const until = Date.now() + (input.waitMs ?? 10_000);
  let ran = 0;
  for (;;) {
    const now = Date.now();
    const next = await db()
      .selectFrom("invoices")
      .select(["id", "status", "due_at", "locked_until"])
      .where("subscription_id", "=", input.subscriptionId)
      .where((eb) =>
        eb.or([
          eb.and([eb("status", "=", "pending"), eb("due_at", "<=", now)]),
          eb("status", "=", "charging"),
        ]),
      )
      .orderBy("due_at")
      .limit(1)
      .executeTakeFirst();
    if (!next) return ran;
    const [claimed] = await claimInvoices(1, [next.id]);
    if (claimed) {
      await runInvoice(claimed);
      ran++;
      continue;
    }
    // Another process holds it: wait for its run.
    if (Date.now() > until) return ran;
    await new Promise((r) => setTimeout(r, 20));
  }
}
