"use client";

import { type FormEvent, useId, useState } from "react";
import { Field } from "@/components/ui/field";
import { StepHeading } from "@/components/ui/step-heading";
import { buttonPrimary, buttonSecondary, inputClass } from "@/components/ui/styles";
import { digitsOf } from "@/lib/checkout/card";
import { fmt } from "@/lib/i18n/locales";
import type { CheckoutMessages } from "@/lib/i18n/messages/en";
import { type CardResult, checkoutApi } from "./api";
import { type CardProblem, declineOf } from "./card-decline";
import { CheckoutForm } from "./checkout-form";
import { useCheckout } from "./context";
import { errorText } from "./error-text";
import { Spinner } from "./spinner";
import { useCharge } from "./use-charge";

/** A wrong one-time password with tries left, in the page's words. */
export function wrongOtpText(left: number | undefined, t: CheckoutMessages): string {
  return fmt(t.otp.wrong, { left: String(left ?? 1) });
}

/**
 * The card's one-time password step. What it answers goes to `onNext` (paid, another step); a decline
 * returns to the card form with the reason (`onBack`), as does "Use a different card".
 */
export function OtpForm({
  onBack,
  onNext,
  postedProblem,
}: {
  onBack: (problem: CardProblem | null) => void;
  onNext: (result: CardResult) => void;
  /** The problem of an OTP the browser posted itself (card-panel.tsx). */
  postedProblem: string | null;
}) {
  const { view, applyStatus, t, locale, money } = useCheckout();
  const o = t.otp;
  const id = useId();
  const [otp, setOtp] = useState("");
  const [otpError, setOtpError] = useState<string | null>(postedProblem);
  const total = money(view.totals.card);

  const confirmOtp = useCharge((code: string, key) => checkoutApi.otp(view.accessCode, code, key), {
    onSuccess: async (result) => {
      if (result.status === "awaiting_otp" && result.reason === "invalid_otp") {
        // A wrong code with tries left: the same card waits for the code again.
        setOtp("");
        setOtpError(wrongOtpText(result.otpTriesLeft, t));
        return;
      }
      if (result.status !== "failed") return onNext(result);
      onBack(declineOf(result, t, locale));
      await applyStatus({ status: "pending" });
    },
    onError: (err) => {
      if (err.code === "invalid_state") {
        onBack({ title: t.card.notCompleted, message: errorText(err, t, locale) });
        void applyStatus({});
      } else setOtpError(errorText(err, t, locale));
    },
  });

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (confirmOtp.isPending) return;
    if (!/^\d{4,8}$/.test(otp)) {
      setOtpError(o.invalid);
      return;
    }
    setOtpError(null);
    confirmOtp.mutate(otp);
  }

  return (
    <div key="otp">
      <StepHeading>{o.title}</StepHeading>
      <p className="mt-1 text-sm text-slate-700">
        {o.body}
        {view.sandbox && ` ${o.testCode}`}
      </p>
      <CheckoutForm intent="otp" onSubmit={onSubmit} className="mt-4 space-y-4">
        <Field id={`${id}-otp`} label={o.label} error={otpError}>
          {(aria) => (
            <input
              {...aria}
              data-field="otp"
              name="otp"
              inputMode="numeric"
              autoComplete="one-time-code"
              maxLength={8}
              value={otp}
              onChange={(e) => setOtp(digitsOf(e.target.value))}
              className={`${inputClass} tracking-widest tabular-nums`}
            />
          )}
        </Field>
        <button type="submit" disabled={confirmOtp.isPending} className={buttonPrimary}>
          {confirmOtp.isPending ? (
            <>
              <Spinner /> {o.confirming}
            </>
          ) : (
            fmt(o.confirm, { total })
          )}
        </button>
        {/* A saved card charged by the merchant has no other card to go back to. */}
        {!view.savedCard && (
          <button
            type="button"
            onClick={() => onBack(null)}
            disabled={confirmOtp.isPending}
            className={`${buttonSecondary} w-full`}
          >
            {o.differentCard}
          </button>
        )}
      </CheckoutForm>
    </div>
  );
}
