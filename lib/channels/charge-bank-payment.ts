import { AppError } from "@/lib/core/errors";
import type { AccessCodePrincipal } from "@/lib/core/principal";
import { db } from "@/lib/db/client";
import { lockTransaction, transition } from "@/lib/payments/state-machine";
import { railsFor } from "@/lib/rails/rails-for";
import { sandboxRails } from "@/lib/rails/sandbox";
import type { BankPaymentOutcome, Rails } from "@/lib/rails/types";
import { applyBankOutcome } from "./apply-bank-outcome";
import { createAttempt, updateAttempt } from "./attempts";
import { bankFor } from "./bank-for";
import { openForCharge } from "./open-for-charge";
import { assertRailTakes, recordRailCharge } from "./record-rail-charge";
import { channelAmounts } from "./settlement";
import { supersedeWaiting } from "./supersede-waiting";

/**
 * POST /payment/checkout/charge/bank-payment: ask the customer's bank to take the payment. On the sandbox the
 * request goes to the bank's app and the transaction waits in `awaiting_bank_authorization` until the
 * customer answers (POST /v1/sandbox/authorizations). Through a processor (Paystack's bank charge) the
 * customer's account number is debited after what the bank asks for: an approval in its app, an OTP, a date
 * of birth, or its own page to open (`action`); the processor's webhook reports the payment.
 */
export async function chargeBankPayment(input: {
  principal: AccessCodePrincipal;
  bankCode: string;
  accountNumber?: string;
}) {
  const done = await db()
    .transaction()
    .execute(async (trx) => {
      const tx = await openForCharge(trx, input.principal, "bank_payment");
      const bank = bankFor(tx, input.bankCode);
      // Which rails, read on this transaction's connection: a processor's path goes on outside it.
      const rails = await railsFor(input.principal, trx);
      if (rails.name !== "sandbox") return { processor: rails };
      await supersedeWaiting(trx, tx.id, "bank_payment");
      const attemptId = await createAttempt(trx, tx, "bank_payment", "awaiting_bank_authorization", {
        bankCode: bank.code,
        bankName: bank.name,
      });
      const { requestId } = await sandboxRails.bankPayment.requestAuthorization({
        reference: tx.reference,
        attemptId,
        bankCode: bank.code,
        accountNumber: null,
        amountMinor: channelAmounts(tx, "bank_payment").totalMinor,
        currency: tx.currency,
        email: tx.email,
      });
      await updateAttempt(trx, attemptId, {
        status: "awaiting_bank_authorization",
        details: { bankCode: bank.code, bankName: bank.name, requestId },
      });
      await transition(trx, tx, "awaiting_bank_authorization");
      return {
        answer: {
          status: "awaiting_bank_authorization",
          reference: tx.reference,
          bankCode: bank.code,
          bankName: bank.name,
          message: `Approve the payment in your ${bank.name} app.`,
        },
      };
    });
  if ("processor" in done) return chargeThroughProcessor(input, done.processor as Rails);
  return done.answer;
}

/** Record the attempt and its reference, ask the processor with no lock held, then apply its answer. */
async function chargeThroughProcessor(
  input: { principal: AccessCodePrincipal; bankCode: string; accountNumber?: string },
  rails: Rails,
) {
  if (rails.bankNeedsAccount && !input.accountNumber) {
    throw new AppError(
      "validation_error",
      "accountNumber is required: this bank payment debits the customer's bank account (10 digits).",
    );
  }
  const { tx, bank, attemptId } = await db()
    .transaction()
    .execute(async (trx) => {
      const row = await openForCharge(trx, input.principal, "bank_payment");
      const found = bankFor(row, input.bankCode);
      assertRailTakes(rails, row);
      await supersedeWaiting(trx, row.id, "bank_payment");
      const id = await createAttempt(trx, row, "bank_payment", "awaiting_bank_authorization", {
        bankCode: found.code,
        bankName: found.name,
      });
      await recordRailCharge(trx, rails, {
        tx: row,
        attemptId: id,
        channel: "bank_payment",
        amountMinor: channelAmounts(row, "bank_payment").totalMinor,
      });
      return { tx: row, bank: found, attemptId: id };
    });
  let asked: { requestId: string; outcome: BankPaymentOutcome };
  try {
    asked = await rails.bankPayment.requestAuthorization({
      reference: tx.reference,
      attemptId,
      bankCode: bank.code,
      accountNumber: input.accountNumber ?? null,
      amountMinor: channelAmounts(tx, "bank_payment").totalMinor,
      currency: tx.currency,
      email: tx.email,
    });
  } catch (err) {
    await db()
      .transaction()
      .execute(async (trx) => {
        await lockTransaction(trx, tx.id);
        await updateAttempt(trx, attemptId, { status: "failed", failureReason: "processor_error" });
      });
    throw err;
  }
  await db()
    .updateTable("charge_attempts")
    .set({
      details: JSON.stringify({ bankCode: bank.code, bankName: bank.name, requestId: asked.requestId }),
    })
    .where("id", "=", attemptId)
    .where("status", "=", "awaiting_bank_authorization")
    .execute();
  return applyBankOutcome({ transactionId: tx.id, attemptId, outcome: asked.outcome });
}
