import { cancelCheckout } from "@/lib/channels/cancel-checkout";
import { chargeBankPayment } from "@/lib/channels/charge-bank-payment";
import { chargeBankTransfer } from "@/lib/channels/charge-bank-transfer";
import { chargeCard } from "@/lib/channels/charge-card";
import { chargeUssd } from "@/lib/channels/charge-ussd";
import { checkBankPayment } from "@/lib/channels/check-bank-payment";
import { checkCardCharge } from "@/lib/channels/check-card-charge";
import {
  AddressBody,
  BankPaymentBody,
  BirthdayBody,
  CardBody,
  OtpBody,
  PhoneBody,
  PinBody,
  UssdBody,
} from "@/lib/channels/schemas";
import { simulateBankTransfer } from "@/lib/channels/simulate-bank-transfer";
import { submitBankStep } from "@/lib/channels/submit-bank-step";
import { submitCardOtp } from "@/lib/channels/submit-card-otp";
import { submitCardStep } from "@/lib/channels/submit-card-step";
import { isAppError } from "@/lib/core/errors";
import { isLocale } from "@/lib/i18n/locales";
import { authenticateAccessCode } from "@/lib/payments/authenticate-access-code";
import { type Channel, isChannel } from "@/lib/payments/channel-list";
import type { StepAnswer } from "@/lib/rails/types";
import { isBankStep } from "./bank-steps";
import { brandOf, cardNumberError, cvvError, digitsOf, expiryError, parseExpiry } from "./card";
import { sandboxCheckoutAuthorize } from "./sandbox-checkout-authorize";
import { sandboxCheckoutTransfer } from "./sandbox-checkout-transfer";
import { CheckoutSandboxAuthorizeBody, CheckoutSandboxTransferBody } from "./schemas";

/**
 * What a form of the checkout page asks for when the browser posts it itself: before the page's code has run,
 * or with JavaScript off. Each is the same verb the page's code calls through the API.
 */
export const CHECKOUT_INTENTS = [
  "card",
  "otp",
  "card_step",
  "card_check",
  "bank_transfer",
  "bank_payment",
  "bank_step",
  "bank_check",
  "ussd",
  "cancel",
  "refresh",
  "sandbox_transfer",
  "sandbox_fail",
  "sandbox_approve",
  "sandbox_decline",
] as const;
export type CheckoutIntent = (typeof CHECKOUT_INTENTS)[number];

/**
 * Where the page goes next: the tab to show and, when the step did not go through, a problem the page names in
 * its own words (a code from a fixed set: `card:<field error>`, `decline:<reason>`, `otp_invalid`, `otp_wrong:<tries left>`,
 * `phone_invalid`, `choose_bank`, `step_invalid`, `not_approved`, or an API error code), never text from the
 * request.
 */
export type CheckoutFormResult = { channel: Channel | null; problem: string | null };

const TAB_OF: Record<CheckoutIntent, Channel | null> = {
  card: "card",
  otp: "card",
  card_step: "card",
  card_check: "card",
  bank_transfer: "bank_transfer",
  bank_payment: "bank_payment",
  bank_step: "bank_payment",
  bank_check: "bank_payment",
  ussd: "ussd",
  cancel: null,
  refresh: null,
  sandbox_transfer: "bank_transfer",
  sandbox_fail: "bank_transfer",
  sandbox_approve: null,
  sandbox_decline: null,
};

const field = (form: FormData, name: string) => {
  const value = form.get(name);
  return typeof value === "string" ? value : "";
};

/** A card answer's decline as a problem code; null when the card did not decline. */
const declined = (result: { status: string; reason?: string }) =>
  result.status === "failed" ? `decline:${result.reason ?? "other"}` : null;

/** A bank's refusal as a problem code; null when it did not refuse. */
const refused = (result: { status: string }) => (result.status === "failed" ? "not_approved" : null);

/** The answer to a step a card's network or a bank asked for (`step` names it), by the API's own schemas. */
function stepAnswer(form: FormData): StepAnswer | null {
  const step = field(form, "step");
  const pick = (...names: string[]) => Object.fromEntries(names.map((n) => [n, field(form, n)]));
  switch (step) {
    case "otp": {
      const body = OtpBody.safeParse({ otp: digitsOf(field(form, "otp")) });
      return body.success ? { step, ...body.data } : null;
    }
    case "pin": {
      const body = PinBody.safeParse(pick("pin"));
      return body.success ? { step, ...body.data } : null;
    }
    case "phone": {
      const body = PhoneBody.safeParse(pick("phone"));
      return body.success ? { step, ...body.data } : null;
    }
    case "birthday": {
      const body = BirthdayBody.safeParse(pick("birthday"));
      return body.success ? { step, ...body.data } : null;
    }
    case "address": {
      const body = AddressBody.safeParse(pick("address", "city", "state", "zipCode"));
      return body.success ? { step, ...body.data } : null;
    }
    default:
      return null;
  }
}

/** A posted checkout form, run through the verb its intent names. */
export async function submitCheckoutForm(input: {
  form: FormData;
  clientAddress: string;
}): Promise<CheckoutFormResult> {
  const { form } = input;
  const intent = field(form, "intent") as CheckoutIntent;
  if (!CHECKOUT_INTENTS.includes(intent)) return { channel: null, problem: null };
  // An intent of no one tab (cancel, refresh, an approval played in test mode) stays on the tab it was posted
  // from, when the form says which.
  const from = field(form, "channel");
  const channel = TAB_OF[intent] ?? (isChannel(from) ? from : null);
  const done = (problem: string | null = null): CheckoutFormResult => ({ channel, problem });
  try {
    const principal = await authenticateAccessCode({
      accessCode: field(form, "accessCode"),
      clientAddress: input.clientAddress,
    });
    switch (intent) {
      case "card": {
        const number = field(form, "number");
        const expiry = field(form, "expiry");
        const cvv = digitsOf(field(form, "cvv"));
        const fieldError =
          cardNumberError(number) ?? expiryError(expiry) ?? cvvError(cvv, brandOf(digitsOf(number)));
        const parsed = parseExpiry(expiry);
        if (fieldError || !parsed) return done(`card:${fieldError ?? "expiryFormat"}`);
        const card = CardBody.safeParse({
          number: digitsOf(number),
          expiryMonth: parsed.month,
          expiryYear: parsed.year,
          cvv,
        });
        if (!card.success) return done("card:numberInvalid");
        const { saveCard: _, locale: __, ...details } = card.data;
        // The box of initialize's saveCard "optional" (a checkbox posts "on" only when ticked), in the page's language.
        const lang = field(form, "lang");
        return done(
          declined(
            await chargeCard({
              principal,
              card: details,
              saveCard: form.get("saveCard") === "on",
              locale: isLocale(lang) ? lang : undefined,
              clientAddress: input.clientAddress,
            }),
          ),
        );
      }
      case "otp": {
        const otp = OtpBody.safeParse({ otp: digitsOf(field(form, "otp")) });
        if (!otp.success) return done("otp_invalid");
        const answer = await submitCardOtp({ principal, otp: otp.data.otp });
        // A wrong code with tries left: the page shows the OTP step again, saying how many remain.
        if (answer.status === "awaiting_otp" && "otpTriesLeft" in answer)
          return done(`otp_wrong:${answer.otpTriesLeft}`);
        return done(declined(answer));
      }
      case "card_step": {
        const answer = stepAnswer(form);
        if (!answer) return done("step_invalid");
        return done(declined(await submitCardStep({ principal, answer })));
      }
      case "card_check":
        return done(declined(await checkCardCharge({ principal })));
      case "bank_transfer":
        await chargeBankTransfer({ principal });
        return done();
      case "bank_step": {
        const answer = stepAnswer(form);
        if (!answer || !isBankStep(answer.step)) return done("step_invalid");
        return done(refused(await submitBankStep({ principal, answer })));
      }
      case "bank_check":
        return done(refused(await checkBankPayment({ principal })));
      case "bank_payment": {
        const accountNumber = field(form, "accountNumber");
        const body = BankPaymentBody.safeParse({
          bankCode: field(form, "bankCode"),
          ...(accountNumber && { accountNumber }),
        });
        if (!body.success)
          return done(body.error.issues[0]?.path[0] === "bankCode" ? "choose_bank" : "step_invalid");
        return done(refused(await chargeBankPayment({ principal, ...body.data })));
      }
      case "ussd": {
        const body = UssdBody.safeParse({ phoneNumber: field(form, "phone"), bankCode: field(form, "bank") });
        if (!body.success) return done("phone_invalid");
        await chargeUssd({ principal, ...body.data });
        return done();
      }
      case "cancel":
        await cancelCheckout({ principal });
        return done();
      case "refresh":
        // The page again as the payment now stands ("I've sent the money").
        return done();
      case "sandbox_transfer": {
        const amount = field(form, "amount");
        const body = CheckoutSandboxTransferBody.parse(amount ? { amount } : {});
        await sandboxCheckoutTransfer({ principal, amount: body.amount });
        return done();
      }
      case "sandbox_fail":
        await simulateBankTransfer({ principal, scenario: "failed" });
        return done();
      case "sandbox_approve":
      case "sandbox_decline": {
        const body = CheckoutSandboxAuthorizeBody.parse({
          decision: intent === "sandbox_approve" ? "approve" : "decline",
        });
        await sandboxCheckoutAuthorize({ principal, decision: body.decision });
        return done(body.decision === "decline" ? "not_approved" : null);
      }
    }
  } catch (err) {
    if (isAppError(err)) return done(err.code);
    throw err;
  }
}
