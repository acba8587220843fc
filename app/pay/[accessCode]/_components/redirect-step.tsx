"use client";

import { useEffect, useState } from "react";
import { StepHeading } from "@/components/ui/step-heading";
import { alertError, buttonPrimary, buttonSecondary } from "@/components/ui/styles";
import { STEP_WINDOW } from "@/lib/checkout/step-window";
import type { ApiError } from "./api";
import { CheckoutForm } from "./checkout-form";
import { useCheckout } from "./context";
import { errorText } from "./error-text";
import { Spinner } from "./spinner";
import { useCharge } from "./use-charge";

/**
 * The bank's own page (3-D Secure, internet banking): a link that opens it in this tab, from which the bank
 * sends the customer back to the checkout (GET /pay/return/paystack, which asks where the payment stands).
 * A customer who comes back another way (the Back button, another tab) presses "I've confirmed it" and the
 * page asks (`check`). The answer goes to `onDone`; a step still waiting says so here.
 *
 * Embedded in a merchant's page, the bank's page never takes the frame (a bank's page refuses to be framed,
 * and the customer should see its address) nor the merchant's page: it opens in a window of its own (a new
 * tab where popups are refused), which closes itself once the bank sends it back to the checkout; the
 * embedded checkout asks where the payment stands as soon as the customer is back on it.
 */
export function RedirectStep<R extends { status: string }>({
  intent,
  url,
  check,
  onDone,
  backLabel,
  onBack,
}: {
  /** "I've confirmed it" as a form the browser posts itself (checkout-form.tsx). */
  intent: "card_check" | "bank_check";
  url: string;
  check: (key: { idempotencyKey: string }) => Promise<R>;
  onDone: (result: R) => void;
  /** Leaving the step for another card or bank; absent where there is none (a saved card's charge). */
  backLabel?: string;
  onBack?: () => void;
}) {
  const { t, locale, embed, refresh } = useCheckout();
  const r = t.steps.redirect;
  useEffect(() => {
    if (!embed) return;
    window.addEventListener("focus", refresh);
    return () => window.removeEventListener("focus", refresh);
  }, [embed, refresh]);
  const [notYet, setNotYet] = useState(false);
  const asked = useCharge((_: null, key) => check(key), {
    onSuccess: (result) => {
      const action = (result as { action?: { step?: string } }).action;
      if (result.status.startsWith("awaiting") && (action?.step === "redirect" || !action)) {
        setNotYet(true);
        return;
      }
      onDone(result);
    },
  });
  return (
    <div key="redirect" data-step="redirect">
      <StepHeading>{r.title}</StepHeading>
      <p className="mt-1 text-sm text-slate-700">{r.body}</p>
      <div className="mt-4 space-y-3">
        {/* rel: the bank's page has no hold on this one; the URL is the processor's, never the merchant's. */}
        <a
          href={url}
          rel="noopener noreferrer"
          className={buttonPrimary}
          target={embed ? "_blank" : undefined}
          onClick={
            embed
              ? (event) => {
                  const opened = window.open(url, STEP_WINDOW, "popup,width=520,height=720");
                  // A refused popup: the link's own new tab instead. The bank's page gets no hold on the frame.
                  if (opened) {
                    opened.opener = null;
                    event.preventDefault();
                  }
                  refresh();
                }
              : undefined
          }
        >
          {r.continue}
        </a>
        <CheckoutForm
          intent={intent}
          onSubmit={(event) => {
            event.preventDefault();
            asked.mutate(null);
          }}
        >
          <button type="submit" disabled={asked.isPending} className={`${buttonSecondary} w-full`}>
            {asked.isPending ? (
              <>
                <Spinner /> {r.checking}
              </>
            ) : (
              r.done
            )}
          </button>
        </CheckoutForm>
        {notYet && !asked.isPending && (
          <p role="status" className="text-sm text-slate-800">
            {r.notYet}
          </p>
        )}
        {asked.error && (
          <p role="alert" className={alertError}>
            {errorText(asked.error as ApiError, t, locale)}
          </p>
        )}
        {onBack && (
          <button type="button" onClick={onBack} className={`${buttonSecondary} w-full`}>
            {backLabel}
          </button>
        )}
      </div>
    </div>
  );
}
