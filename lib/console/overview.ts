import { db } from "@/lib/db/client";
import { type Mode, toMinor } from "@/lib/db/schema";
import { formatAmount } from "@/lib/money/amount";
import type { Currency } from "@/lib/money/currencies";
import { listTransactions } from "@/lib/payments/list-transactions";
import { findEndpoint } from "@/lib/webhooks/find-endpoint";
import { presentEndpoint } from "@/lib/webhooks/present";

const DAY = 24 * 60 * 60 * 1000;

/** Collected money per currency since a time: the sum of successful payments' amounts (integer minor units). */
async function collectedSince(merchantId: string, mode: Mode, since: number) {
  const rows = await db()
    .selectFrom("transactions")
    .select((eb) => [
      "currency",
      eb.fn.sum<string | number | bigint>("amount_minor").as("sum"),
      eb.fn.countAll<string | number | bigint>().as("count"),
    ])
    .where("merchant_id", "=", merchantId)
    .where("mode", "=", mode)
    .where("status", "=", "success")
    .where("paid_at", ">=", since)
    .groupBy("currency")
    .orderBy("currency")
    .execute();
  return rows.map((r) => ({
    currency: r.currency,
    amount: formatAmount(toMinor(r.sum), r.currency as Currency),
    count: Number(r.count),
  }));
}

/**
 * The console's overview of one mode: money collected today (since UTC midnight) and over the last 7 days per
 * currency, how many payments were made in those 7 days and how many of the finished ones succeeded, the last
 * payments, and what needs the merchant's attention (a disabled webhook endpoint, money due back to payers).
 */
export async function consoleOverview(input: { merchantId: string; mode: Mode; now?: number }) {
  const now = input.now ?? Date.now();
  const midnight = new Date(now);
  midnight.setUTCHours(0, 0, 0, 0);
  const weekAgo = now - 7 * DAY;
  const [today, week, counts, recent, endpoint, refundsDue] = await Promise.all([
    collectedSince(input.merchantId, input.mode, midnight.getTime()),
    collectedSince(input.merchantId, input.mode, weekAgo),
    db()
      .selectFrom("transactions")
      .select((eb) => ["status", eb.fn.countAll<string | number | bigint>().as("count")])
      .where("merchant_id", "=", input.merchantId)
      .where("mode", "=", input.mode)
      .where("created_at", ">=", weekAgo)
      .groupBy("status")
      .execute(),
    listTransactions({ merchantId: input.merchantId, mode: input.mode, limit: 5 }),
    findEndpoint(db(), input.merchantId, input.mode),
    db()
      .selectFrom("refunds")
      .select((eb) => eb.fn.countAll<string | number | bigint>().as("count"))
      .where("merchant_id", "=", input.merchantId)
      .where("mode", "=", input.mode)
      .where("status", "=", "pending")
      .executeTakeFirst(),
  ]);
  const byStatus = Object.fromEntries(counts.map((c) => [c.status, Number(c.count)]));
  const payments = Object.values(byStatus).reduce((a, b) => a + b, 0);
  const succeeded = byStatus.success ?? 0;
  const finished = succeeded + (byStatus.failed ?? 0) + (byStatus.abandoned ?? 0);
  return {
    today,
    week,
    payments,
    succeeded,
    /** Whole percent of finished payments that succeeded, or null when none finished. */
    successRate: finished === 0 ? null : Math.round((succeeded * 100) / finished),
    recent: recent.transactions,
    webhook: endpoint ? presentEndpoint(endpoint) : null,
    refundsDue: Number(refundsDue?.count ?? 0),
  };
}
