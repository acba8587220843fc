/**
 * The reference Paystack knows an attempt by. Paystack allows only `-`, `.`, `=` and letters and digits in a
 * reference (the document's ChargeCreate.reference) and refuses one it has seen ("Duplicate Transaction
 * Reference"), so each attempt gets its own, derived from the transaction's reference and the attempt's id:
 * `PAY_TXN_8Q2M…` + attempt `3f2c…-…` → `PAY-TXN-8Q2M….3f2c…`. The same attempt always gives the same
 * reference, so a call repeated for one attempt can never charge twice, and the attempt's random id makes
 * the reference unguessable from the transaction's (it leads back to the checkout: /pay/return/paystack).
 */
export function paystackReference(reference: string, attemptId: string): string {
  return `${reference.replace(/_/g, "-")}.${attemptId.replace(/-/g, "")}`;
}

/** Whether a string can be a reference this service gave Paystack (checked before any lookup by it). */
export const PAYSTACK_REFERENCE = /^PAY-TXN-[A-Za-z0-9]{1,64}\.[0-9a-f]{32}$/;
