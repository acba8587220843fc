"use client";

import { StepHeading } from "@/components/ui/step-heading";
import { alertError, buttonSecondary } from "@/components/ui/styles";
import { useCheckout } from "./context";

/** The customer declined a bank-app or phone request: nothing was charged; try again or switch channel. */
export function NotApproved({ advice }: { advice: string }) {
  const { view, focusTabs, t } = useCheckout();
  return (
    <div className={`mt-4 ${alertError}`}>
      <StepHeading level={3} className="font-semibold">
        {t.notApproved.title}
      </StepHeading>
      <p className="mt-1">
        {t.notApproved.nothingCharged} {advice}
      </p>
      {view.channels.length > 1 && (
        <button type="button" onClick={focusTabs} className={`mt-2 ${buttonSecondary}`}>
          {t.payAnotherWay}
        </button>
      )}
    </div>
  );
}
