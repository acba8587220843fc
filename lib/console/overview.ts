import { db } from "@/lib/db/client";
import { type Mode, toMinor } from "@/lib/db/schema";
import { formatAmount } from "@/lib/money/amount";
import type { Currency } from "@/lib/money/currencies";
import { listTransactions } from "@/lib/payments/list-transactions";
import { findEndpoint } from "@/lib/webhooks/find-endpoint";
import { presentEndpoint } from "@/lib/webhooks/present";

const DAY = 24 * 60 * 60 * 1000;

/**
 * An enabled endpoint is failing when the last delivery attempt to its current URL that finished, failed:
 * the relay disables an endpoint only once a whole retry schedule (a day and more) found nothing working, and
 * the merchant should hear of it before that. Answers how many attempts failed since the last success.
 */
async function endpointFailures(endpointId: string, url: string) {
  const finished = () =>
    db()
      .selectFrom("webhook_deliveries")
      .where("endpoint_id", "=", endpointId)
      .where("url", "=", url)
      .where("status", "in", ["succeeded", "failed"])
      .where("finished_at", "is not", null);
  const last = await finished()
    .select(["status", "finished_at"])
    .orderBy("finished_at", "desc")
    .orderBy("attempt", "desc")
    .limit(1)
    .executeTakeFirst();
  if (last?.status !== "failed") return null;
  const lastSuccess = await finished()
    .select("finished_at")
    .where("status", "=", "succeeded")
    .orderBy("finished_at", "desc")
    .limit(1)
    .executeTakeFirst();
  let failedSince = finished()
    .select((eb) => eb.fn.countAll<string | number | bigint>().as("count"))
    .where("status", "=", "failed");
  if (lastSuccess?.finished_at != null)
    failedSince = failedSince.where("finished_at", ">", lastSuccess.finished_at);
  const count = await failedSince.executeTakeFirst();
  return {
    failures: Number(count?.count ?? 0),
    lastFailureAt: new Date(Number(last.finished_at)).toISOString(),
  };
}

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
 * The console's overview of one mode: money collected today (paid since 00:00 UTC) and over the last 7 days
 * (paid in the 7 × 24 hours up to now) per currency, how many payments were created in those 7 days and how many
 * of the finished ones (success, failed, abandoned) succeeded, the last payments, and what needs the merchant's
 * attention: a disabled webhook endpoint, an enabled one whose last finished delivery failed, pending refunds.
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
  const webhook = endpoint ? presentEndpoint(endpoint) : null;
  const failing =
    endpoint && endpoint.status === "enabled" ? await endpointFailures(endpoint.id, endpoint.url) : null;
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
    webhook,
    /** The enabled endpoint's failures since its last success, when its last finished delivery failed. */
    webhookFailing: failing,
    refundsDue: Number(refundsDue?.count ?? 0),
  };
}
