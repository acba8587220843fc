import type { CardFieldError } from "@/lib/checkout/card";
import { fmt } from "@/lib/i18n/locales";
import type { CheckoutMessages } from "@/lib/i18n/messages/en";
import { type CardProblem, declineOf } from "./card-decline";

/**
 * A problem code of a form the browser posted itself (lib/checkout/submit-checkout-form.ts), in the page's
 * words. Every code maps to the catalogue; an unknown one reads as the generic "try again".
 */
export function problemText(code: string, t: CheckoutMessages, locale: string): CardProblem {
  const [kind, detail = ""] = code.split(":", 2);
  const notCompleted = (message: string) => ({ title: t.card.notCompleted, message });
  switch (kind) {
    case "decline":
      return declineOf({ reason: detail }, t, locale);
    case "card":
      return notCompleted(t.card.fieldErrors[detail as CardFieldError] ?? t.errors.generic);
    case "otp_invalid":
      return notCompleted(t.otp.invalid);
    case "otp_wrong":
      return notCompleted(fmt(t.otp.wrong, { left: /^[12]$/.test(detail) ? detail : "1" }));
    case "phone_invalid":
      return notCompleted(t.ussd.phoneInvalid);
    case "choose_bank":
      return notCompleted(t.bankPayment.chooseBank);
    default:
      return notCompleted(t.errors[kind as keyof CheckoutMessages["errors"]] ?? t.errors.generic);
  }
}
