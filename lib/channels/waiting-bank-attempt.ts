import type { Kysely } from "kysely";
import type { Database } from "@/lib/db/schema";
import type { ChargeStep } from "@/lib/rails/types";

/** The transaction's latest bank payment request still waiting for the customer, if any. */
export async function waitingBankAttempt(executor: Kysely<Database>, transactionId: string) {
  return executor
    .selectFrom("charge_attempts")
    .selectAll()
    .where("transaction_id", "=", transactionId)
    .where("channel", "=", "bank_payment")
    .where("status", "=", "awaiting_bank_authorization")
    .orderBy("created_at", "desc")
    .limit(1)
    .executeTakeFirst();
}

export type BankDetails = {
  bankCode: string;
  bankName: string;
  requestId?: string;
  step?: ChargeStep;
  message?: string;
  url?: string;
  /** The steps answered so far (lib/channels/step-answers.ts). */
  answered?: ChargeStep[];
  /** An answer on its way to the bank: its step and when it was claimed (lib/channels/submit-bank-step.ts). */
  answering?: { step: ChargeStep; at: number };
};

export function bankDetails(details: string): BankDetails {
  return JSON.parse(details) as BankDetails;
}
