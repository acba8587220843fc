import { presentInvoice } from "@/lib/billing/present";
import { db } from "@/lib/db/client";
import type { Mode } from "@/lib/db/schema";
import { findSubscription } from "./find-subscription";

/** GET /v1/subscriptions/{code}/invoices: every invoice of the subscription, newest period first. */
export async function listInvoices(input: { merchantId: string; mode: Mode; code: string }) {
  const sub = await findSubscription(input);
  const rows = await db()
    .selectFrom("invoices")
    .selectAll()
    .where("subscription_id", "=", sub.id)
    .orderBy("period_index", "desc")
    .execute();
  return { invoices: rows.map((r) => presentInvoice(r, Number(sub.clock_offset_ms))) };
}
