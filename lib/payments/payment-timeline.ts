import { AppError } from "@/lib/core/errors";
import { db } from "@/lib/db/client";
import { type Mode, toMillis } from "@/lib/db/schema";

const iso = (v: number | string | bigint) => new Date(toMillis(v)).toISOString();

export type TimelineEntry = { at: string; what: string; detail: string | null };

/**
 * One transaction's story for the console, oldest first: created, each channel attempt with its outcome,
 * paid. The merchant's own transaction in the mode only (another merchant's is unknown, 404).
 */
export async function paymentTimeline(input: {
  merchantId: string;
  mode: Mode;
  reference: string;
}): Promise<TimelineEntry[]> {
  const tx = await db()
    .selectFrom("transactions")
    .select(["id", "created_at", "paid_at", "status", "updated_at", "channel"])
    .where("reference", "=", input.reference)
    .where("merchant_id", "=", input.merchantId)
    .where("mode", "=", input.mode)
    .executeTakeFirst();
  if (!tx)
    throw new AppError(
      "transaction_not_found",
      `No transaction with reference ${input.reference} in ${input.mode} mode.`,
    );
  const attempts = await db()
    .selectFrom("charge_attempts")
    .select(["channel", "status", "failure_reason", "created_at", "updated_at"])
    .where("transaction_id", "=", tx.id)
    .where("merchant_id", "=", input.merchantId)
    .orderBy("created_at")
    .execute();
  const entries: TimelineEntry[] = [{ at: iso(tx.created_at), what: "Payment created", detail: null }];
  for (const a of attempts) {
    entries.push({ at: iso(a.created_at), what: `${channelName(a.channel)} attempt started`, detail: null });
    if (toMillis(a.updated_at) !== toMillis(a.created_at) || a.failure_reason) {
      entries.push({
        at: iso(a.updated_at),
        what: `${channelName(a.channel)} attempt ${a.status.replaceAll("_", " ")}`,
        detail: a.failure_reason,
      });
    }
  }
  if (tx.paid_at !== null) {
    entries.push({ at: iso(tx.paid_at), what: "Paid", detail: tx.channel ? channelName(tx.channel) : null });
  } else if (tx.status === "failed" || tx.status === "abandoned") {
    entries.push({
      at: iso(tx.updated_at),
      what: tx.status === "failed" ? "Failed" : "Abandoned",
      detail: null,
    });
  }
  return entries.sort((a, b) => a.at.localeCompare(b.at));
}

export function channelName(channel: string): string {
  return (
    { card: "Card", bank_transfer: "Bank transfer", bank_payment: "Bank payment", ussd: "USSD" }[channel] ??
    channel.replaceAll("_", " ")
  );
}
