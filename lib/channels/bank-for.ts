import { type Bank, countryForCurrency, findBank } from "@/lib/banks/banks";
import { AppError } from "@/lib/core/errors";
import type { TransactionRow } from "@/lib/db/types";

/** The bank a code names in the transaction's country, or 400 naming the field. */
export function bankFor(tx: TransactionRow, code: string): Bank {
  const bank = findBank(countryForCurrency(tx.currency), code);
  if (!bank)
    throw new AppError("validation_error", `bankCode ${code} is not a bank in /payment/checkout/banks.`);
  return bank;
}
