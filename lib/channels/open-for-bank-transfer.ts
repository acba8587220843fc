import { AppError } from "@/lib/core/errors";
import type { AccessCodePrincipal } from "@/lib/core/principal";
import type { Trx } from "@/lib/db/types";
import { openForCharge } from "./open-for-charge";

/**
 * Lock the access code's transaction for bank transfer: open, offering bank transfer, and with the email
 * initialize was given (400 `email_required` without one).
 */
export async function openForBankTransfer(
  trx: Trx,
  principal: AccessCodePrincipal,
  options: { paying?: boolean } = {},
) {
  const tx = await openForCharge(trx, principal, "bank_transfer", options);
  if (!tx.email) {
    throw new AppError(
      "email_required",
      "Bank transfer needs the customer's email: pass email to initialize.",
    );
  }
  return tx;
}
