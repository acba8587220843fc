import { sql } from "kysely";
import { presentSubscriptionRow } from "@/lib/billing/load-subscription";
import { lockSubscription } from "@/lib/billing/settle-invoice";
import { db } from "@/lib/db/client";
import type { Mode } from "@/lib/db/schema";
import { toMillis } from "@/lib/db/schema";
import { assertTestMode } from "@/lib/payments/test-mode";
import { findSubscription } from "./find-subscription";
import { runDueInvoices } from "./run-due-invoices";

/**
 * Test mode's clock of one subscription (POST /v1/sandbox/clock/advance with `subscription`): its time moves
 * `seconds` forward, and every renewal and retry that falls due meanwhile runs at once, in order, each at its
 * own moment: the clock stops at the next one due, runs it (its failure schedules the retry from then), and
 * moves on, until it reaches the end. A charge the bank asks the customer to confirm waits for them (the
 * clock still reaches its end; what follows it runs once they have answered and the clock moves again). Nothing else's time moves: not its
 * saved card's (that one has a clock of its own), nor any payment's.
 */
export async function advanceSubscriptionClock(input: {
  merchantId: string;
  mode: Mode;
  code: string;
  seconds: number;
}) {
  assertTestMode(input.mode);
  const found = await findSubscription(input);
  const target = Date.now() + toMillis(found.clock_offset_ms) + input.seconds * 1000;
  for (;;) {
    const next = await db()
      .selectFrom("invoices")
      .select(["status", "due_at"])
      .where("subscription_id", "=", found.id)
      .where("status", "in", ["pending", "charging", "waiting"])
      .orderBy("due_at")
      .limit(1)
      .executeTakeFirst();
    // The clock's time now, and where it stops next: the next invoice due before the end, or the end.
    const sub = await db()
      .selectFrom("subscriptions")
      .select("clock_offset_ms")
      .where("id", "=", found.id)
      .executeTakeFirstOrThrow();
    const offset = toMillis(sub.clock_offset_ms);
    const now = Date.now() + offset;
    const nextDue = next?.status === "pending" ? toMillis(next.due_at) + offset : null;
    const stop = nextDue !== null && nextDue <= target ? Math.max(nextDue, now) : target;
    await moveClock(found.id, stop - now);
    if (stop === target || next?.status !== "pending") break;
    const ran = await runDueInvoices({ subscriptionId: found.id });
    if (ran === 0) break;
  }
  // What is due at the end (a renewal on the very moment the clock reaches).
  await runDueInvoices({ subscriptionId: found.id });
  return presentSubscriptionRow(await findSubscription(input));
}

/** Move the subscription's clock `ms` forward: its pending invoices come that much closer in real time. */
async function moveClock(subscriptionId: string, ms: number): Promise<void> {
  if (ms <= 0) return;
  await db()
    .transaction()
    .execute(async (trx) => {
      await lockSubscription(trx, subscriptionId);
      await trx
        .updateTable("subscriptions")
        .set({ clock_offset_ms: sql`clock_offset_ms + ${ms}`, updated_at: Date.now() })
        .where("id", "=", subscriptionId)
        .execute();
      await trx
        .updateTable("invoices")
        .set({ due_at: sql`due_at - ${ms}` })
        .where("subscription_id", "=", subscriptionId)
        .where("status", "=", "pending")
        .execute();
    });
}
