"use client";

import { useRef, useState } from "react";
import { fmt } from "@/lib/i18n/locales";
import { type ApiError, type CardResult, type ChargeAction, checkoutApi } from "./api";
import { type CardProblem, declineOf } from "./card-decline";
import { CardForm } from "./card-form";
import { useCheckout } from "./context";
import { OtpForm } from "./otp-form";
import { problemText } from "./problem-text";
import { ProcessingStep } from "./processing-step";
import { RedirectStep } from "./redirect-step";
import { StepForm } from "./step-form";
import { useCardFields } from "./use-card-fields";

type Step =
  | { kind: "card" }
  | { kind: "otp" }
  | { kind: "action"; action: ChargeAction }
  | { kind: "processing" };

/**
 * The card channel: the card form (card-form.tsx), then whatever the card's network asks for next: a
 * one-time password (otp-form.tsx), a PIN, a phone number, a date of birth or a billing address
 * (step-form.tsx), the bank's 3-D Secure page (redirect-step.tsx), or a wait while it decides
 * (processing-step.tsx). The typed card (use-card-fields.ts) lives here, so coming back from a step keeps it.
 */
export function CardPanel() {
  const { record, view, applyStatus, t, locale, money, posted } = useCheckout();
  const [step, setStep] = useState<Step>(() => {
    const action = record.action?.channel === "card" ? record.action : undefined;
    if (action?.step === "otp" || record.status === "awaiting_otp") return { kind: "otp" };
    if (action) return { kind: "action", action };
    return { kind: "card" };
  });
  // A card form posted without the page's code comes back with its problem in the address: shown above the
  // card form, or by the step it came back to.
  const postedProblem = posted?.channel === "card" ? problemText(posted.problem, t, locale) : null;
  const [problem, setProblem] = useState<CardProblem | null>(() =>
    step.kind === "card" ? postedProblem : null,
  );
  const stepProblem = step.kind === "card" ? null : (postedProblem?.message ?? null);
  const formRef = useRef<HTMLFormElement>(null);
  const card = useCardFields(formRef, t.card.fieldErrors);

  function backToCard(next: CardProblem | null) {
    setProblem(next && { ...next, at: Date.now() });
    card.clearCvv();
    setStep({ kind: "card" });
  }

  /** What a card call answered: the next step, the outcome, or back to the card with the reason. */
  function onNext(result: CardResult) {
    switch (result.status) {
      case "success":
        void applyStatus({ status: "success", channel: "card", total: view.totals.card });
        return;
      case "awaiting_otp":
        setStep({ kind: "otp" });
        void applyStatus({ status: "awaiting_otp" });
        return;
      case "awaiting_action":
        setStep({ kind: "action", action: result.action });
        void applyStatus({ status: "pending", action: { channel: "card", ...result.action } });
        return;
      case "processing":
        setStep({ kind: "processing" });
        return;
      case "failed":
        backToCard(declineOf(result, t, locale));
        void applyStatus({ status: "pending", action: undefined });
        return;
    }
  }

  /** A step refused because the payment moved on (409): back to the card, saying so. */
  function stepRefused(err: ApiError): boolean {
    if (err.code !== "invalid_state") return false;
    backToCard({ title: t.card.notCompleted, message: err.message });
    void applyStatus({});
    return true;
  }

  const check = (key: { idempotencyKey: string }) => checkoutApi.cardCheck(view.accessCode, key);

  if (step.kind === "otp") return <OtpForm onBack={backToCard} onNext={onNext} postedProblem={stepProblem} />;
  if (step.kind === "processing") return <ProcessingStep check={check} onDone={onNext} />;
  if (step.kind === "action") {
    const { action } = step;
    if (action.step === "redirect") {
      return (
        <RedirectStep
          intent="card_check"
          url={action.url ?? ""}
          check={check}
          onDone={onNext}
          backLabel={t.otp.differentCard}
          onBack={() => backToCard(null)}
        />
      );
    }
    if (action.step === "otp")
      return <OtpForm onBack={backToCard} onNext={onNext} postedProblem={stepProblem} />;
    return (
      <StepForm<CardResult>
        intent="card_step"
        step={action.step}
        message={action.message}
        send={(values, key) => checkoutApi.cardStep(view.accessCode, action.step, values, key)}
        onDone={onNext}
        onFailed={stepRefused}
        submitLabel={fmt(t.otp.confirm, { total: money(view.totals.card) })}
        backLabel={t.otp.differentCard}
        onBack={() => backToCard(null)}
      />
    );
  }
  return <CardForm card={card} formRef={formRef} problem={problem} onProblem={setProblem} onNext={onNext} />;
}
