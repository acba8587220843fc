import { type Bank, countryForCurrency, findBank } from "@/lib/banks/banks";
import { db } from "@/lib/db/client";
import type { TransactionRow, Trx } from "@/lib/db/types";
import { AppError } from "@/lib/http/errors";
import type { AccessCodePrincipal } from "@/lib/http/principal";
import type { Channel } from "@/lib/payments/channels";
import { transition } from "@/lib/payments/state-machine";
import { railsFor } from "@/lib/rails/rails-for";
import { createAttempt } from "./attempts";
import { openForCharge } from "./open-for-charge";
import { channelAmounts } from "./settlement";

/** The bank a code names in the transaction's country, or 400 naming the field. */
export function bankFor(tx: TransactionRow, code: string): Bank {
  const bank = findBank(countryForCurrency(tx.currency), code);
  if (!bank)
    throw new AppError("validation_error", `bankCode ${code} is not a bank in /payment/checkout/banks.`);
  return bank;
}

/** A newer request on a channel replaces the one still waiting, so only the latest can be approved. */
export async function supersedeWaiting(trx: Trx, transactionId: string, channel: Channel) {
  await trx
    .updateTable("charge_attempts")
    .set({ status: "failed", failure_reason: "superseded", updated_at: Date.now() })
    .where("transaction_id", "=", transactionId)
    .where("channel", "=", channel)
    .where("status", "in", ["awaiting_bank_authorization", "awaiting_ussd"])
    .execute();
}

/**
 * POST /payment/checkout/charge/bank-payment: ask the customer's bank to push an approval request to its app;
 * the transaction waits in `awaiting_bank_authorization` until the customer answers (in test mode, through
 * `POST /v1/sandbox/authorizations`).
 */
export async function chargeBankPayment(input: { principal: AccessCodePrincipal; bankCode: string }) {
  return db()
    .transaction()
    .execute(async (trx) => {
      const tx = await openForCharge(trx, input.principal, "bank_payment");
      const bank = bankFor(tx, input.bankCode);
      const { requestId } = await railsFor(tx.mode).bankPayment.requestAuthorization({
        reference: tx.reference,
        bankCode: bank.code,
        amountMinor: channelAmounts(tx, "bank_payment").totalMinor,
      });
      await supersedeWaiting(trx, tx.id, "bank_payment");
      await createAttempt(trx, tx, "bank_payment", "awaiting_bank_authorization", {
        bankCode: bank.code,
        bankName: bank.name,
        requestId,
      });
      await transition(trx, tx, "awaiting_bank_authorization");
      return {
        status: "awaiting_bank_authorization",
        reference: tx.reference,
        bankCode: bank.code,
        bankName: bank.name,
        message: `Approve the payment in your ${bank.name} app.`,
      };
    });
}
