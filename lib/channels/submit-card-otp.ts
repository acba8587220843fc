import type { AccessCodePrincipal } from "@/lib/core/principal";
import { submitCardStep } from "./submit-card-step";

/** POST /payment/checkout/charge/card/otp: finish the card payment that asked for a one-time password. */
export async function submitCardOtp(input: { principal: AccessCodePrincipal; otp: string }) {
  return submitCardStep({ principal: input.principal, answer: { step: "otp", otp: input.otp } });
}
