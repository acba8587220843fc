import { AppError } from "@/lib/core/errors";
import type { SecretKeyPrincipal } from "@/lib/core/principal";
import { db } from "@/lib/db/client";
import { parseAmount } from "@/lib/money/amount";
import { type Currency, isCurrency } from "@/lib/money/currencies";
import { assertTestMode } from "@/lib/payments/test-mode";
import { randomString } from "@/lib/security/tokens";
import { receiveInboundTransfer, sandboxRail } from "./receive-inbound-transfer";

/**
 * The account number that is never a sandbox account (its NUBAN check digit is wrong for the sandbox bank):
 * money sent to it takes the path of a transfer to an account no transaction owns (`unknown_account`).
 */
export const SANDBOX_UNKNOWN_ACCOUNT = "9999999999";

/**
 * POST /v1/sandbox/transfers: an inbound transfer to one of the merchant's test virtual accounts, reported
 * exactly as the bank rail would report it (same path, `receiveInboundTransfer`). The merchant chooses the
 * `sessionId`, so it counts within the merchant's own sandbox rail: another merchant's `sess-1` is not a
 * repeat of this one's.
 */
export async function sandboxTransfer(input: {
  principal: SecretKeyPrincipal;
  accountNumber: string;
  amount: string;
  sessionId?: string;
}) {
  assertTestMode(input.principal.mode);
  const va = await db()
    .selectFrom("virtual_accounts")
    .select(["currency"])
    .where("account_number", "=", input.accountNumber)
    .where("merchant_id", "=", input.principal.merchantId)
    .where("mode", "=", input.principal.mode)
    // A processor's account (Paystack test mode) takes the processor's own test transfers, not the sandbox's.
    .where("rail", "is", null)
    .executeTakeFirst();
  if (!va && input.accountNumber !== SANDBOX_UNKNOWN_ACCOUNT) {
    throw new AppError(
      "transaction_not_found",
      `No test virtual account ${input.accountNumber} belongs to this merchant.`,
    );
  }
  const currency: Currency = va && isCurrency(va.currency) ? va.currency : "NGN";
  const amount = parseAmount(input.amount, currency);
  if (!amount.ok) throw new AppError("validation_error", `amount ${amount.reason}.`);
  return receiveInboundTransfer({
    rail: sandboxRail(input.principal.merchantId),
    sessionId: input.sessionId ?? `sbx_${randomString(24)}`,
    accountNumber: input.accountNumber,
    amountMinor: amount.minor,
  });
}
