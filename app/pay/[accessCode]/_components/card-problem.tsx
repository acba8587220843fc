"use client";

import { StepHeading } from "@/components/ui/step-heading";
import { buttonSecondary } from "@/components/ui/styles";
import { useHydrated } from "@/components/ui/use-hydrated";
import type { CardProblemNoticeProps } from "./card-problem-choice";
import { useCheckout } from "./context";

/**
 * A decline (or a card payment that did not complete) above the card form, with the ways on: "Try another
 * card" (an empty form) and "Pay another way" (the tabs). Once the page's code runs, the form waits under it
 * until the customer picks one (card-form.tsx hides it: a filled form beside "Try another card" says two
 * things at once). Before that, or with JavaScript off, those buttons could do nothing: the notice has none,
 * and the form stays, to be posted again.
 */
export function CardProblemNotice({ problem, onTryAgain }: CardProblemNoticeProps) {
  const { view, focusTabs, t } = useCheckout();
  const hydrated = useHydrated();
  return (
    <div key={problem.at} className="mt-4 rounded-lg bg-red-50 p-4 text-red-900 ring-1 ring-red-200">
      <StepHeading level={3} className="text-base font-semibold">
        {problem.title}
      </StepHeading>
      <p className="mt-1 text-sm">{problem.message}</p>
      {hydrated && (
        <div className="mt-3 flex flex-wrap gap-2">
          <button type="button" onClick={onTryAgain} className={buttonSecondary}>
            {t.card.tryAnotherCard}
          </button>
          {view.channels.length > 1 && (
            <button type="button" onClick={focusTabs} className={buttonSecondary}>
              {t.payAnotherWay}
            </button>
          )}
        </div>
      )}
    </div>
  );
}
