"use client";

import { useRef, useState } from "react";
import type { CardProblem } from "./card-decline";
import { CardForm } from "./card-form";
import { useCheckout } from "./context";
import { OtpForm } from "./otp-form";
import { problemText } from "./problem-text";
import { WithQuery } from "./query-client";
import { useCardFields } from "./use-card-fields";

/**
 * The card channel: the card form (card-form.tsx), then the one-time password when the card asks for one
 * (otp-form.tsx). The typed card (use-card-fields.ts) lives here, so coming back from the OTP step keeps it.
 */
function CardPanelBody() {
  const { record, t, locale, posted } = useCheckout();
  const [step, setStep] = useState<"card" | "otp">(record.status === "awaiting_otp" ? "otp" : "card");
  // A card form posted without the page's code comes back with its problem in the address.
  const [problem, setProblem] = useState<CardProblem | null>(() =>
    posted?.channel === "card" && record.status !== "awaiting_otp"
      ? problemText(posted.problem, t, locale)
      : null,
  );
  const formRef = useRef<HTMLFormElement>(null);
  const card = useCardFields(formRef, t.card.fieldErrors);

  function backToCard(next: CardProblem | null) {
    setProblem(next && { ...next, at: Date.now() });
    card.clearCvv();
    setStep("card");
  }

  if (step === "otp")
    return (
      <OtpForm
        onBack={backToCard}
        postedProblem={
          posted?.channel === "card" && record.status === "awaiting_otp"
            ? problemText(posted.problem, t, locale).message
            : null
        }
      />
    );
  return (
    <CardForm
      card={card}
      formRef={formRef}
      problem={problem}
      onProblem={setProblem}
      onOtp={() => setStep("otp")}
    />
  );
}

/** CardPanel, with the checkout's TanStack Query client (loaded with this chunk, not with the first screen). */
export function CardPanel() {
  return (
    <WithQuery>
      <CardPanelBody />
    </WithQuery>
  );
}
