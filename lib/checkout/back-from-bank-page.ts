import { checkBankPayment } from "@/lib/channels/check-bank-payment";
import { checkCardCharge } from "@/lib/channels/check-card-charge";
import { isAppError } from "@/lib/core/errors";
import type { AccessCodePrincipal, Mode } from "@/lib/core/principal";
import { log } from "@/lib/log";

/**
 * Where a customer back from a bank's own page (3-D Secure, internet banking) lands: the checkout, on the
 * channel they paid with, with the refusal's problem code when the bank refused, so the panel says why as it
 * does for a form the browser posted itself (lib/checkout/submit-checkout-form.ts). A payment that went
 * through, or still waits, needs no words: the checkout shows where it stands.
 */
export function backFromBankPage(
  accessCode: string,
  channel: string,
  result: { status: string; reason?: unknown } | null,
): string {
  const path = `/pay/${accessCode}`;
  if (result?.status !== "failed") return path;
  const problem =
    channel === "card"
      ? `decline:${typeof result.reason === "string" ? result.reason : "other"}`
      : channel === "bank_payment"
        ? "not_approved"
        : null;
  return problem ? `${path}?${new URLSearchParams({ channel, problem })}` : path;
}

/**
 * A customer back from a bank's page (Paystack's return, the sandbox bank's answer): the charge on `channel`
 * is asked where it stands now (checkCardCharge, checkBankPayment) and what it answers applied, then
 * `backFromBankPage` says where the browser goes. A check that fails leaves the checkout to ask itself.
 */
export async function returnFromBankPage(
  tx: { id: string; reference: string; merchant_id: string; mode: Mode; access_code: string },
  channel: string,
  source: string,
): Promise<string> {
  const principal: AccessCodePrincipal = {
    kind: "access_code",
    merchantId: tx.merchant_id,
    mode: tx.mode,
    transactionId: tx.id,
    reference: tx.reference,
  };
  let result: { status: string; reason?: unknown } | null = null;
  try {
    if (channel === "card") result = await checkCardCharge({ principal });
    else if (channel === "bank_payment") result = await checkBankPayment({ principal });
  } catch (err) {
    // The checkout shows where the payment stands either way; its own check and the webhook settle it.
    if (!isAppError(err))
      log.warn("return from a bank's page not checked", {
        source,
        error: err instanceof Error ? err.message : String(err),
      });
  }
  return backFromBankPage(tx.access_code, channel, result);
}
