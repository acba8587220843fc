import { randomString } from "@/lib/security/tokens";

/** Crockford's base32 (no I, L, O, U), as customer codes (lib/customers/codes.ts). */
const BASE32 = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

export const newPlanCode = () => `PLN_${randomString(20, BASE32)}`;
export const newSubscriptionCode = () => `SUB_${randomString(20, BASE32)}`;
export const newInvoiceId = () => `INV_${randomString(20, BASE32)}`;

export const PLAN_CODE = /^PLN_[0-9A-Z]{20}$/;
export const SUBSCRIPTION_CODE = /^SUB_[0-9A-Z]{20}$/;
export const INVOICE_ID = /^INV_[0-9A-Z]{20}$/;

/**
 * The reference of an invoice's `attempt`-th charge (1 = the first): made from the invoice, so a charge run
 * again after a crash finds the payment of the run before (charge-authorization's reference rule) and never
 * charges twice.
 */
export function invoiceReference(invoiceId: string, attempt: number): string {
  return `PAY_TXN_${invoiceId.replace("_", "")}N${attempt}`;
}
