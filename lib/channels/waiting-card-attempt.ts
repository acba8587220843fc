import type { Kysely, Selectable } from "kysely";
import type { ChargeAttemptsTable, Database } from "@/lib/db/schema";
import type { ChargeStep } from "@/lib/rails/types";
import type { CardSummary } from "./apply-card-outcome";

type AttemptRow = Selectable<ChargeAttemptsTable>;

/**
 * The transaction's card attempt waiting for the customer (an OTP, or another step: awaiting_action), if any:
 * the latest one (a new card payment supersedes an older one).
 */
export async function waitingCardAttempt(executor: Kysely<Database>, transactionId: string) {
  return executor
    .selectFrom("charge_attempts")
    .selectAll()
    .where("transaction_id", "=", transactionId)
    .where("channel", "=", "card")
    .where("status", "in", ["awaiting_otp", "awaiting_action"])
    .orderBy("created_at", "desc")
    .limit(1)
    .executeTakeFirst();
}

/** A card attempt's details: what is kept of the card, and the step it waits for (with its message and page). */
export function cardDetails(attempt: Pick<AttemptRow, "details" | "status">): {
  summary: CardSummary;
  authorization: string | undefined;
  step: ChargeStep | undefined;
  message: string | undefined;
  url: string | undefined;
  /** One-time passwords typed wrong so far on this attempt (retry-otp.ts). */
  wrongOtps: number;
} {
  const { authorization, step, message, url, wrongOtps, ...summary } = JSON.parse(
    attempt.details,
  ) as CardSummary & {
    authorization?: string;
    step?: ChargeStep;
    message?: string;
    url?: string;
    wrongOtps?: number;
  };
  return {
    summary,
    authorization,
    wrongOtps: wrongOtps ?? 0,
    // An OTP wait recorded before steps had names carries no `step`.
    step: attempt.status === "awaiting_otp" ? "otp" : step,
    message,
    url,
  };
}
