import { db } from "@/lib/db/client";
import type { AccessCodePrincipal } from "@/lib/http/principal";
import { transition } from "@/lib/payments/state-machine";
import { railsFor } from "@/lib/rails/rails-for";
import { createAttempt } from "./attempts";
import { bankFor } from "./bank-for";
import { openForCharge } from "./open-for-charge";
import { channelAmounts } from "./settlement";
import { supersedeWaiting } from "./supersede-waiting";

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
