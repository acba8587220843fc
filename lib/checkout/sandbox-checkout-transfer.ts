import { heldOnAccount } from "@/lib/channels/held-transfers";
import { receiveInboundTransfer, sandboxRail } from "@/lib/channels/receive-inbound-transfer";
import { AppError } from "@/lib/core/errors";
import type { AccessCodePrincipal } from "@/lib/core/principal";
import { db } from "@/lib/db/client";
import { toMinor } from "@/lib/db/schema";
import { parseAmount } from "@/lib/money/amount";
import { type Currency, isCurrency } from "@/lib/money/currencies";
import { assertTestMode } from "@/lib/payments/test-mode";
import { randomString } from "@/lib/security/tokens";

/**
 * POST /v1/payment/checkout/sandbox/transfer (test mode): the pay page's "I sent it" button for testers. An
 * inbound transfer to the transaction's open virtual account, of `amount` (default: what the account still
 * expects), through the one inbound path every real bank notification takes (`receiveInboundTransfer`), so
 * too little shows the mismatch notice with what is still due, and the rest completes the payment. It needs only the
 * access code: the page never holds the merchant's secret key.
 */
export async function sandboxCheckoutTransfer(input: { principal: AccessCodePrincipal; amount?: string }) {
  assertTestMode(input.principal.mode);
  const va = await db()
    .selectFrom("virtual_accounts")
    .select(["account_number", "expected_minor", "currency"])
    .where("transaction_id", "=", input.principal.transactionId)
    .where("merchant_id", "=", input.principal.merchantId)
    .where("mode", "=", input.principal.mode)
    .where("expires_at", ">", Date.now())
    // A processor's account (Paystack test mode) takes the processor's own test transfers, not the sandbox's.
    .where("rail", "is", null)
    .orderBy("created_at", "desc")
    .limit(1)
    .executeTakeFirst();
  if (!va) {
    throw new AppError(
      "invalid_state",
      "No virtual account is open for this payment: ask for bank transfer details first.",
    );
  }
  const currency: Currency = isCurrency(va.currency) ? va.currency : "NGN";
  // By default what is still due: the account has maybe received part of it already.
  let amountMinor =
    toMinor(va.expected_minor) -
    (await heldOnAccount(db(), input.principal.transactionId, va.account_number));
  if (input.amount !== undefined) {
    const parsed = parseAmount(input.amount, currency);
    if (!parsed.ok) throw new AppError("validation_error", `amount ${parsed.reason}.`);
    amountMinor = parsed.minor;
  }
  return receiveInboundTransfer({
    rail: sandboxRail(input.principal.merchantId),
    sessionId: `chk_${randomString(24)}`,
    accountNumber: va.account_number,
    amountMinor,
  });
}
