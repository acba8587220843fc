import { sql } from "kysely";
import { db } from "@/lib/db/client";
import type { Mode } from "@/lib/db/schema";
import { env } from "@/lib/env";
import { type Job, recurringJob } from "@/lib/jobs/runner";
import { log } from "@/lib/log";
import { lockTransaction } from "@/lib/payments/state-machine";
import { railsOfAttempt } from "@/lib/rails/rails-for";
import type { CardStatus } from "@/lib/rails/types";
import { afterCardFailure } from "./after-card-failure";
import { updateAttempt } from "./attempts";
import { captureCard } from "./capture-card";

/** The query a reconciliation pass starts from (exported for the test that checks its plan uses the index). */
export function staleCardAttemptsQuery(now: number, limit: number) {
  return (
    db()
      .selectFrom("charge_attempts")
      .select(["id", "transaction_id", "mode", "created_at"])
      // Inlined, as the partial index `charge_attempts_authorizing` (migration 0011) states it.
      .where(sql<boolean>`status = ${sql.lit("authorizing")}`)
      .where("updated_at", "<=", now - env().CARD_RECONCILE_SECONDS * 1000)
      .where("channel", "=", "card")
      .orderBy("updated_at")
      .limit(limit)
  );
}

/**
 * Card reconciliation (docs/refunds.md): a card attempt still `authorizing` CARD_RECONCILE_SECONDS after it
 * started lost its answer (its process died while the network held it). The network is asked again for what
 * it decided, and under the transaction's row lock the attempt is settled once: money captured completes the
 * payment if it is still open, or becomes an automatic refund; anything else fails the attempt (nothing was
 * captured). An attempt another process settled meanwhile is left as it is. Returns how many were settled.
 */
export async function reconcileCards(now = Date.now(), limit = 100): Promise<number> {
  const stale = await staleCardAttemptsQuery(now, limit).execute();
  let settled = 0;
  for (const attempt of stale) {
    try {
      if (await reconcileAttempt(attempt)) settled++;
    } catch (err) {
      log.error("card attempt not reconciled", {
        attemptId: attempt.id,
        error: err instanceof Error ? err.message : String(err),
      });
    }
  }
  return settled;
}

/** How long a charge the network keeps calling undecided (`pending`) is asked about before it is given up. */
const PENDING_LIMIT_MS = 24 * 3600_000;

async function reconcileAttempt(attempt: {
  id: string;
  transaction_id: string;
  mode: Mode;
  created_at: number | string | bigint;
}): Promise<boolean> {
  const owner = await db()
    .selectFrom("transactions")
    .select(["reference", "merchant_id"])
    .where("id", "=", attempt.transaction_id)
    .executeTakeFirstOrThrow();
  const reference = owner.reference;
  const rails = await railsOfAttempt({
    attemptId: attempt.id,
    merchantId: owner.merchant_id,
    mode: attempt.mode,
  });
  const status: CardStatus = await rails.card.cardStatus({ attemptId: attempt.id, reference });
  return db()
    .transaction()
    .execute(async (trx) => {
      const tx = await lockTransaction(trx, attempt.transaction_id);
      const current = await trx
        .selectFrom("charge_attempts")
        .select("status")
        .where("id", "=", attempt.id)
        .executeTakeFirst();
      if (current?.status !== "authorizing") return false;
      if (status.kind === "pending" && Number(attempt.created_at) > Date.now() - PENDING_LIMIT_MS) {
        // Still being decided (or the network did not answer): asked again after CARD_RECONCILE_SECONDS.
        await updateAttempt(trx, attempt.id, { status: "authorizing" });
        return false;
      }
      if (status.kind === "success") {
        const result = await captureCard(trx, tx, attempt.id, status.reusable);
        log.info("card attempt reconciled", { attemptId: attempt.id, reference, result });
        return true;
      }
      const reason =
        status.kind === "failed"
          ? status.reason
          : status.kind === "action_required"
            ? "authorization_incomplete"
            : "no_answer_from_network";
      await updateAttempt(trx, attempt.id, { status: "failed", failureReason: reason });
      await afterCardFailure(trx, tx);
      log.info("card attempt reconciled", { attemptId: attempt.id, reference, result: "failed", reason });
      return true;
    });
}

/** The card reconciliation job's name on the runner (lib/jobs/runner.ts). */
export const CARD_RECONCILIATION_JOB = "card-reconciliation";

/**
 * Card reconciliation as a job on the runner, on the expiry sweep's interval (CHECKOUT_EXPIRY_SWEEP_SECONDS;
 * 0 turns it off): card attempts whose answer was lost are asked about again. A checkout whose card is still
 * at the network is never ended by the expiry sweep meanwhile (`cardInFlight`), so the two jobs need no order
 * between them.
 */
export function cardReconciliationJob(): Job | null {
  const seconds = env().CHECKOUT_EXPIRY_SWEEP_SECONDS;
  if (seconds === 0) return null;
  return recurringJob({
    name: CARD_RECONCILIATION_JOB,
    title: "card reconciliation",
    everyMs: seconds * 1000,
    run: async () => {
      const reconciled = await reconcileCards();
      if (reconciled > 0) log.info("card attempts reconciled", { count: reconciled });
    },
  });
}
