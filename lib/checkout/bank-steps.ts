/**
 * The steps a bank payment asks the customer to answer with a form, each with its own endpoint
 * (`POST /v1/payment/checkout/charge/bank-payment/{step}`) and the checkout's `bank_step` form: a one-time
 * password, a date of birth, the account's phone number or its PIN (Paystack's `send_otp`, `send_birthday`,
 * `send_phone`, `send_pin`). The bank's own page is the `redirect` action, not a form.
 */
export const BANK_STEPS = ["otp", "birthday", "phone", "pin"] as const;
export type BankStep = (typeof BANK_STEPS)[number];

export function isBankStep(step: string): step is BankStep {
  return (BANK_STEPS as readonly string[]).includes(step);
}
