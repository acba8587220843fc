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
