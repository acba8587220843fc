import { db } from "@/lib/db/client";
import { AppError } from "@/lib/http/errors";
import type { AccessCodePrincipal } from "@/lib/http/principal";
import { transition } from "@/lib/payments/state-machine";
import { railsFor } from "@/lib/rails/rails-for";
import { createAttempt } from "./attempts";
import { bankFor } from "./bank-for";
import { openForCharge } from "./open-for-charge";
import { supersedeWaiting } from "./supersede-waiting";

/** The bank used when the customer names none: the most widely used USSD bank in Nigeria. */
export const DEFAULT_USSD_BANK = "058";

/**
 * POST /payment/checkout/charge/ussd: a code the customer dials from the phone registered with the bank;
 * the transaction waits in `awaiting_ussd` until the customer approves (in test mode through
 * `POST /v1/sandbox/authorizations`).
 */
export async function chargeUssd(input: {
  principal: AccessCodePrincipal;
  phoneNumber: string;
  bankCode?: string;
}) {
  return db()
    .transaction()
    .execute(async (trx) => {
      const tx = await openForCharge(trx, input.principal, "ussd");
      const bank = bankFor(tx, input.bankCode ?? DEFAULT_USSD_BANK);
      if (!bank.ussd)
        throw new AppError(
          "validation_error",
          `bankCode ${bank.code} (${bank.name}) has no USSD service; choose another bank.`,
        );
      const { ussdCode } = await railsFor(tx.mode).ussd.createCode({
        reference: tx.reference,
        bankCode: bank.code,
        ussdShortCode: bank.ussd,
        phoneNumber: input.phoneNumber,
      });
      await supersedeWaiting(trx, tx.id, "ussd");
      await createAttempt(trx, tx, "ussd", "awaiting_ussd", {
        bankCode: bank.code,
        bankName: bank.name,
        ussdCode,
        phoneLast4: input.phoneNumber.slice(-4),
      });
      await transition(trx, tx, "awaiting_ussd");
      return {
        status: "awaiting_ussd",
        reference: tx.reference,
        ussdCode,
        dialUrl: `tel:${encodeURIComponent(ussdCode)}`,
        bankCode: bank.code,
        bankName: bank.name,
        message: `Dial ${ussdCode} on the phone registered with ${bank.name} and follow the prompts.`,
      };
    });
}
