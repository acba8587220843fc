"use client";

import dynamic from "next/dynamic";
import { Suspense, useEffect, useRef, useState } from "react";
import { type ApiError, type CardResult, checkoutApi, newIdempotencyKey } from "./api";
import { type CardProblem, declineOf } from "./card-decline";
import { CardForm, loadNotice } from "./card-form";
import type { CardStep } from "./card-steps";
import { useCheckout } from "./context";
import { problemText } from "./problem-text";
import { Spinner } from "./spinner";
import { useCardFields } from "./use-card-fields";

type Step = { kind: "card" } | CardStep;

/** The steps after the card form are a chunk of their own, fetched once the page is idle (card-steps.tsx). */
export const loadCardSteps = () => import("./card-steps");
// Written out in the dynamic() call, so a page rendered on a step preloads its chunk.
const CardSteps = dynamic(() => import("./card-steps").then((m) => m.CardSteps));
// Only on the page of a merchant's charge of a saved card: a chunk of its own, out of every other first load.
const SavedCardSummary = dynamic(() => import("./saved-card-summary").then((m) => m.SavedCardSummary));

function Loading() {
  const { t } = useCheckout();
  return (
    <p className="flex items-center gap-2 text-sm text-slate-700">
      <Spinner /> {t.loading}
    </p>
  );
}

/**
 * The card channel: the card form (card-form.tsx), then whatever the card's network asks for next
 * (card-steps.tsx). The typed card (use-card-fields.ts) lives here, so coming back from a step keeps it.
 */
export function CardPanel() {
  const { record, view, applyStatus, t, locale, posted } = useCheckout();
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
  const opensOnStep = useRef(step.kind !== "card");
  // Once the card form is up, its next step and a decline's notice are fetched in the background, before the
  // card is sent.
  useEffect(() => {
    const timer = setTimeout(() => {
      void loadCardSteps().catch(() => {});
      void loadNotice().catch(() => {});
    }, 1_000);
    return () => clearTimeout(timer);
  }, []);
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

  /** A step refused because it was answered already, or the payment moved on (409): its next step, or back to the card. */
  function stepRefused(err: ApiError): boolean {
    // Answered already (a second tap, another tab): show where the card payment stands now, the next step.
    if (err.code === "step_already_answered") {
      void checkoutApi
        .cardCheck(view.accessCode, { idempotencyKey: newIdempotencyKey() })
        .then(onNext, () => {});
      return true;
    }
    if (err.code !== "invalid_state") return false;
    backToCard({ title: t.card.notCompleted, message: err.message });
    void applyStatus({});
    return true;
  }

  // A merchant's charge of a saved card: that card, and the bank's step when one waits; never a card form.
  const saved = view.savedCard !== null;
  if (step.kind !== "card") {
    const props = { step, onBack: backToCard, onNext, onRefused: stepRefused, postedProblem: stepProblem };
    // The step the page was rendered on is in its HTML (no boundary); one reached here shows the loading line
    // if its chunk has not arrived yet.
    const steps = opensOnStep.current ? (
      <CardSteps {...props} />
    ) : (
      <Suspense fallback={<Loading />}>
        <CardSteps {...props} />
      </Suspense>
    );
    return saved ? (
      <>
        <SavedCardSummary waiting />
        {steps}
      </>
    ) : (
      steps
    );
  }
  if (saved) return <SavedCardSummary waiting={false} />;
  return <CardForm card={card} formRef={formRef} problem={problem} onProblem={setProblem} onNext={onNext} />;
}
