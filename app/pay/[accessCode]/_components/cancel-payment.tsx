"use client";

import { useEffect, useRef, useState } from "react";
import { alertError, buttonLink, buttonSecondary } from "@/components/ui/styles";
import { fmt } from "@/lib/i18n/locales";
import { checkoutApi } from "./api";
import { useCheckout } from "./context";
import { errorText } from "./error-text";
import { WithQuery } from "./query-client";
import { useCharge } from "./use-charge";

/** "Cancel payment", confirmed inline: the transaction ends `abandoned` and the customer goes back. */
function CancelPaymentBody() {
  const { view, applyStatus, t, locale } = useCheckout();
  const c = t.cancel;
  const [confirming, setConfirming] = useState(false);
  const keepRef = useRef<HTMLButtonElement>(null);
  const openRef = useRef<HTMLButtonElement>(null);
  const moved = useRef(false);
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

  return (
    <div className="mt-6 border-t border-slate-200 pt-4 text-center">
      {confirming ? (
        <fieldset>
          <legend className="mx-auto text-sm font-medium text-slate-900">
            {view.callbackUrl ? fmt(c.questionReturn, { merchant: view.merchant.name }) : c.question}
          </legend>
          <div className="mt-3 flex flex-wrap justify-center gap-2">
            <button
              type="button"
              disabled={cancel.isPending}
              onClick={() => cancel.mutate("cancel")}
              className={`${buttonSecondary} text-red-800`}
            >
              {cancel.isPending ? c.cancelling : c.yes}
            </button>
            <button
              ref={keepRef}
              type="button"
              disabled={cancel.isPending}
              onClick={() => toggle(false)}
              className={buttonSecondary}
            >
              {c.keep}
            </button>
          </div>
          {cancel.error && cancel.error.code !== "invalid_state" && (
            <p role="alert" className={`mt-3 ${alertError}`}>
              {errorText(cancel.error, t, locale)}
            </p>
          )}
        </fieldset>
      ) : (
        <button ref={openRef} type="button" onClick={() => toggle(true)} className={buttonLink}>
          {c.open}
        </button>
      )}
    </div>
  );
}

/** CancelPayment, with the checkout's TanStack Query client (loaded with this chunk, not with the first screen). */
export function CancelPayment() {
  return (
    <WithQuery>
      <CancelPaymentBody />
    </WithQuery>
  );
}
