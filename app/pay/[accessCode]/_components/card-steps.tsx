"use client";

import { fmt } from "@/lib/i18n/locales";
import { type ApiError, type CardResult, type ChargeAction, checkoutApi } from "./api";
import type { CardProblem } from "./card-decline";
import { useCheckout } from "./context";
import { OtpForm } from "./otp-form";
import { ProcessingStep } from "./processing-step";
import { RedirectStep } from "./redirect-step";
import { StepForm } from "./step-form";

/** A card step after the card form: what the card's network asked for next. */
export type CardStep = { kind: "otp" } | { kind: "action"; action: ChargeAction } | { kind: "processing" };

/**
 * The card's next step: a one-time password (otp-form.tsx), a PIN, a phone number, a date of birth or a
 * billing address (step-form.tsx), the bank's 3-D Secure page (redirect-step.tsx), or a wait while it decides
 * (processing-step.tsx). A chunk of its own: a customer needs it only once the card has been sent
 * (card-panel.tsx fetches it then, or while the page is idle).
 */
export function CardSteps({
  step,
  onBack,
  onNext,
  onRefused,
  postedProblem,
}: {
  step: CardStep;
  /** Back to the card form, with the reason when there is one. */
  onBack: (problem: CardProblem | null) => void;
  onNext: (result: CardResult) => void;
  /** A step refused because the payment moved on: true when handled. */
  onRefused: (err: ApiError) => boolean;
  /** The problem of a step the browser posted itself. */
  postedProblem: string | null;
}) {
  const { view, t, money } = useCheckout();
  const check = (key: { idempotencyKey: string }) => checkoutApi.cardCheck(view.accessCode, key);
  // A saved card charged by the merchant has no other card to go back to (saved-card-summary.tsx).
  const back = view.savedCard ? {} : { backLabel: t.otp.differentCard, onBack: () => onBack(null) };

  if (step.kind === "processing") return <ProcessingStep check={check} onDone={onNext} />;
  if (step.kind === "otp" || step.action.step === "otp")
    return <OtpForm onBack={onBack} onNext={onNext} postedProblem={postedProblem} />;
  const { action } = step;
  if (action.step === "redirect") {
    return (
      <RedirectStep intent="card_check" url={action.url ?? ""} check={check} onDone={onNext} {...back} />
    );
  }
  return (
    <StepForm<CardResult>
      intent="card_step"
      step={action.step}
      message={action.message}
      send={(values, key) => checkoutApi.cardStep(view.accessCode, action.step, values, key)}
      onDone={onNext}
      onFailed={onRefused}
      submitLabel={fmt(t.otp.confirm, { total: money(view.totals.card) })}
      {...back}
    />
  );
}
