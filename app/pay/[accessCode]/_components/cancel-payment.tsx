"use client";

import { type FormEvent, useEffect, useRef, useState } from "react";
import { alertError, buttonLink, buttonSecondary } from "@/components/ui/styles";
import { fmt } from "@/lib/i18n/locales";
import { checkoutApi } from "./api";
import { CancelBox, Toggle } from "./cancel-toggle";
import { CheckoutForm } from "./checkout-form";
import { useCheckout } from "./context";
import { errorText } from "./error-text";
import { useCharge } from "./use-charge";

type Props = {
  /** The query of the page the question is asked on (the tab, the language), kept by its plain forms. */
  keep: Record<string, string>;
  /** `?cancel=confirm` (the page was loaded from its plain form), or opened by the button of cancel-toggle.tsx. */
  initiallyConfirming: boolean;
  /** Opened by a tap on this page: focus goes to the question's answer. */
  openedHere?: boolean;
};

/**
 * "Cancel payment", confirmed inline: the transaction ends `abandoned` and the customer goes back. Each of
 * its controls is a form, so each answers before the page's code runs (or without it).
 */
export function CancelPayment({ keep, initiallyConfirming, openedHere = false }: Props) {
  const { view, applyStatus, t, locale } = useCheckout();
  const c = t.cancel;
  const [confirming, setConfirming] = useState(initiallyConfirming);
  const keepRef = useRef<HTMLButtonElement>(null);
  const openRef = useRef<HTMLButtonElement>(null);
  const moved = useRef(openedHere);
  const cancel = useCharge((_: "cancel", key) => checkoutApi.cancel(view.accessCode, key), {
    onSuccess: () => applyStatus({ status: "abandoned" }),
    onError: (err) => {
      // Already finished (paid meanwhile): the status poll shows what happened.
      if (err.code === "invalid_state") void applyStatus({});
    },
  });

  useEffect(() => {
    if (!moved.current) return;
    (confirming ? keepRef : openRef).current?.focus();
  }, [confirming]);

  function toggle(next: boolean) {
    moved.current = true;
    setConfirming(next);
  }

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    cancel.mutate("cancel");
  }

  return (
    <CancelBox>
      {confirming ? (
        <fieldset>
          <legend className="mx-auto text-sm font-medium text-slate-900">
            {view.callbackUrl ? fmt(c.questionReturn, { merchant: view.merchant.name }) : c.question}
          </legend>
          <div className="mt-3 flex flex-wrap justify-center gap-2">
            <CheckoutForm intent="cancel" onSubmit={onSubmit}>
              <button type="submit" disabled={cancel.isPending} className={`${buttonSecondary} text-red-800`}>
                {cancel.isPending ? c.cancelling : c.yes}
              </button>
            </CheckoutForm>
            <Toggle
              query={keep}
              onToggle={() => toggle(false)}
              buttonRef={keepRef}
              disabled={cancel.isPending}
              className={buttonSecondary}
            >
              {c.keep}
            </Toggle>
          </div>
          {cancel.error && cancel.error.code !== "invalid_state" && (
            <p role="alert" className={`mt-3 ${alertError}`}>
              {errorText(cancel.error, t, locale)}
            </p>
          )}
        </fieldset>
      ) : (
        <Toggle
          query={{ ...keep, cancel: "confirm" }}
          onToggle={() => toggle(true)}
          buttonRef={openRef}
          className={buttonLink}
        >
          {c.open}
        </Toggle>
      )}
    </CancelBox>
  );
}
