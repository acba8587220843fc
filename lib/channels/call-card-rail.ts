import { AppError } from "@/lib/core/errors";
import type { AccessCodePrincipal } from "@/lib/core/principal";
import { db } from "@/lib/db/client";
import type { Trx } from "@/lib/db/types";
import { lockTransaction } from "@/lib/payments/state-machine";
import type { CardOutcome } from "@/lib/rails/types";
import { afterCardFailure } from "./after-card-failure";
import { updateAttempt } from "./attempts";

/**
 * A rail that throws has not charged (rails throw only then: a call that never reached the processor, a key
 * it refused; a lost answer is an outcome, `pending`): the attempt is failed and the answer is the rail's own
 * 4xx/502 (`processor_error`, `live_not_connected`), or 502 `processor_error` for anything unexpected.
 */
export async function callCardRail(
  principal: Pick<AccessCodePrincipal, "transactionId">,
  attemptId: string,
  call: () => Promise<CardOutcome>,
): Promise<CardOutcome> {
  try {
    return await call();
  } catch (err) {
    await db()
      .transaction()
      .execute(async (trx) => {
        const tx = await lockTransaction(trx, principal.transactionId);
        if (!(await stillAuthorizing(trx, attemptId))) return;
        await updateAttempt(trx, attemptId, { status: "failed", failureReason: "processor_error" });
        await afterCardFailure(trx, tx);
      });
    if (err instanceof AppError) throw err;
    throw new AppError(
      "processor_error",
      "The card processor did not answer; nothing was charged. Try again.",
    );
  }
}

async function stillAuthorizing(trx: Trx, attemptId: string): Promise<boolean> {
  const row = await trx
    .selectFrom("charge_attempts")
    .select("status")
    .where("id", "=", attemptId)
    .executeTakeFirst();
  return row?.status === "authorizing";
}
