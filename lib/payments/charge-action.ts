import type { Kysely } from "kysely";
import type { Database } from "@/lib/db/schema";

export type ChargeActionRecord = {
  channel: "card" | "bank_payment";
  step: "pin" | "otp" | "phone" | "birthday" | "address" | "redirect";
  message: string;
  url?: string;
};

/**
 * What the transaction's latest card or bank payment waits for from the customer (a PIN, an OTP, a date of
 * birth, the bank's page…), so a reloaded checkout shows that step again. Undefined when nothing waits.
 */
export async function chargeAction(
  executor: Kysely<Database>,
  transactionId: string,
): Promise<ChargeActionRecord | undefined> {
  const attempt = await executor
    .selectFrom("charge_attempts")
    .select(["channel", "status", "details"])
    .where("transaction_id", "=", transactionId)
    .where("status", "in", ["awaiting_otp", "awaiting_action", "awaiting_bank_authorization"])
    .where("channel", "in", ["card", "bank_payment"])
    .orderBy("created_at", "desc")
    .limit(1)
    .executeTakeFirst();
  if (!attempt) return undefined;
  const details = JSON.parse(attempt.details) as {
    step?: ChargeActionRecord["step"];
    message?: string;
    url?: string;
  };
  const step = attempt.status === "awaiting_otp" ? "otp" : details.step;
  if (!step) return undefined;
  return {
    channel: attempt.channel as ChargeActionRecord["channel"],
    step,
    message: details.message ?? "",
    ...(details.url && { url: details.url }),
  };
}
