"use client";

import { type FormEvent, useId, useState } from "react";
import { Field } from "@/components/ui/field";
import { StepHeading } from "@/components/ui/step-heading";
import { buttonPrimary, buttonSecondary, inputClass } from "@/components/ui/styles";
import { digitsOf } from "@/lib/checkout/card";
import { formatMoney } from "@/lib/checkout/format";
import { checkoutApi } from "./api";
import { type CardProblem, declineOf } from "./card-decline";
import { useCheckout } from "./context";
import { Spinner } from "./spinner";
import { useCharge } from "./use-charge";

/** The card's second step: the one-time password the bank sent. `onBack` returns to the card form. */
export function OtpForm({ onBack }: { onBack: (problem: CardProblem | null) => void }) {
  const { view, applyStatus } = useCheckout();
  const id = useId();
  const [otp, setOtp] = useState("");
  const [otpError, setOtpError] = useState<string | null>(null);
  const total = formatMoney(view.totals.card, view.currency);

  const confirmOtp = useCharge((code: string, key) => checkoutApi.otp(view.accessCode, code, key), {
    onSuccess: async (result) => {
      if (result.status === "success")
        return applyStatus({ status: "success", channel: "card", total: view.totals.card });
      onBack(declineOf(result));
      await applyStatus({ status: "pending" });
    },
    onError: (err) => {
      if (err.code === "invalid_state") {
        onBack({ title: "Payment not completed", message: err.message });
        void applyStatus({});
      } else setOtpError(err.message);
    },
  });

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (confirmOtp.isPending) return;
    if (!/^\d{4,8}$/.test(otp)) {
      setOtpError("Enter the code from your bank: 4 to 8 digits.");
      return;
    }
    setOtpError(null);
    confirmOtp.mutate(otp);
  }

  return (
    <div key="otp">
      <StepHeading>Enter the one-time password</StepHeading>
      <p className="mt-1 text-sm text-slate-700">
        Your bank sent a code to the phone number linked to your card.
        {view.testMode && " In test mode the code is 123456."}
      </p>
      <form onSubmit={onSubmit} noValidate className="mt-4 space-y-4">
        <Field id={`${id}-otp`} label="One-time password" error={otpError}>
          {(aria) => (
            <input
              {...aria}
              data-field="otp"
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
              <Spinner /> Confirming…
            </>
          ) : (
            `Confirm payment of ${total}`
          )}
        </button>
        <button
          type="button"
          onClick={() => onBack(null)}
          disabled={confirmOtp.isPending}
          className={`${buttonSecondary} w-full`}
        >
          Use a different card
        </button>
      </form>
    </div>
  );
}
