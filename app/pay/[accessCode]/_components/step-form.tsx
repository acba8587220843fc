"use client";

import { type FormEvent, useId, useState } from "react";
import { Field } from "@/components/ui/field";
import { StepHeading } from "@/components/ui/step-heading";
import { alertError, buttonPrimary, buttonSecondary, inputClass } from "@/components/ui/styles";
import { digitsOf } from "@/lib/checkout/card";
import type { ApiError } from "./api";
import { CheckoutForm } from "./checkout-form";
import { useCheckout } from "./context";
import { errorText } from "./error-text";
import { Spinner } from "./spinner";
import { useCharge } from "./use-charge";

/** The steps answered with a form (an OTP, a PIN, a phone number, a date of birth, a billing address). */
export type FormStep = "otp" | "pin" | "phone" | "birthday" | "address";

type Values = Record<string, string>;

const ADDRESS_FIELDS = [
  ["address", "street-address"],
  ["city", "address-level2"],
  ["state", "address-level1"],
  ["zipCode", "postal-code"],
] as const;

/**
 * One step a card's network or a bank asked for, as a form: its fields, checked here before anything is
 * sent, then `send` (its own Idempotency-Key per try, useCharge) and `onDone` with the answer. The PIN is a
 * password field and is never kept after it is sent. `onBack` leaves the payment for another card or bank.
 */
export function StepForm<R>({
  intent,
  step,
  message,
  send,
  onDone,
  onFailed,
  submitLabel,
  backLabel,
  onBack,
  texts: own,
}: {
  /** The same step as a form the browser posts itself (checkout-form.tsx). */
  intent: "card_step" | "bank_step";
  step: FormStep;
  /** What the network said (Paystack's display text), shown under the heading when it adds something. */
  message?: string;
  send: (values: Values, key: { idempotencyKey: string }) => Promise<R>;
  onDone: (result: R) => void;
  /** A refusal that ends the step (the payment moved on): the caller goes back. Others show here. */
  onFailed?: (err: ApiError) => boolean;
  submitLabel: string;
  /** Leaving the step for another card or bank; absent where there is none (a saved card's charge). */
  backLabel?: string;
  onBack?: () => void;
  /** Words of the caller's own for this step (a bank's PIN is the account's, not a card's). */
  texts?: { title?: string; body?: string; label?: string; invalid?: string };
}) {
  const { t, locale } = useCheckout();
  const s = t.steps;
  const id = useId();
  const [values, setValues] = useState<Values>({});
  const [invalid, setInvalid] = useState<string | null>(null);
  const submit = useCharge(send, {
    onSuccess: (result) => {
      setValues({});
      onDone(result);
    },
    onError: (err) => {
      if (onFailed?.(err)) return;
    },
  });
  const texts = {
    ...(step === "otp"
      ? {
          title: t.bankPayment.otpTitle,
          body: t.bankPayment.otpBody,
          label: t.otp.label,
          invalid: t.otp.invalid,
        }
      : step === "address"
        ? { title: s.address.title, body: s.address.body, label: "", invalid: s.address.invalid }
        : s[step]),
    ...own,
  };

  function check(): boolean {
    const v = (name: string) => (values[name] ?? "").trim();
    if (step === "pin") return /^\d{4}$/.test(v("pin"));
    if (step === "otp") return /^\d{4,8}$/.test(v("otp"));
    if (step === "phone") return /^\+?\d{10,15}$/.test(v("phone").replace(/[\s()-]/g, ""));
    if (step === "birthday") return /^\d{4}-\d{2}-\d{2}$/.test(v("birthday"));
    return ADDRESS_FIELDS.every(([name]) => v(name).length > 0);
  }

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (submit.isPending) return;
    if (!check()) {
      setInvalid(texts.invalid);
      return;
    }
    setInvalid(null);
    const trimmed = Object.fromEntries(Object.entries(values).map(([k, v]) => [k, v.trim()]));
    submit.mutate(trimmed);
  }

  const set = (name: string, value: string) => setValues((old) => ({ ...old, [name]: value }));
  const failure = submit.error && !onFailed?.(submit.error) ? errorText(submit.error, t, locale) : null;

  return (
    <div key={step} data-step={step}>
      <StepHeading>{texts.title}</StepHeading>
      <p className="mt-1 text-sm text-slate-700">{texts.body}</p>
      {message && message !== texts.body && <p className="mt-1 text-sm text-slate-700">{message}</p>}
      <CheckoutForm intent={intent} fields={{ step }} onSubmit={onSubmit} className="mt-4 space-y-4">
        {step === "address" ? (
          ADDRESS_FIELDS.map(([name, autoComplete], i) => (
            <Field key={name} id={`${id}-${name}`} label={s.address[name]} error={i === 0 ? invalid : null}>
              {(aria) => (
                <input
                  {...aria}
                  data-field={name}
                  name={name}
                  autoComplete={`billing ${autoComplete}`}
                  maxLength={name === "zipCode" ? 12 : 200}
                  value={values[name] ?? ""}
                  onChange={(e) => set(name, e.target.value)}
                  className={inputClass}
                />
              )}
            </Field>
          ))
        ) : (
          <Field id={`${id}-${step}`} label={texts.label} error={invalid}>
            {(aria) =>
              step === "birthday" ? (
                <input
                  {...aria}
                  type="date"
                  data-field="birthday"
                  name="birthday"
                  autoComplete="bday"
                  max={new Date().toISOString().slice(0, 10)}
                  value={values.birthday ?? ""}
                  onChange={(e) => set("birthday", e.target.value)}
                  className={inputClass}
                />
              ) : step === "phone" ? (
                <input
                  {...aria}
                  type="tel"
                  data-field="phone"
                  name="phone"
                  autoComplete="tel"
                  maxLength={20}
                  value={values.phone ?? ""}
                  onChange={(e) => set("phone", e.target.value)}
                  className={`${inputClass} tabular-nums`}
                />
              ) : (
                <input
                  {...aria}
                  type={step === "pin" ? "password" : "text"}
                  data-field={step}
                  name={step}
                  inputMode="numeric"
                  autoComplete={step === "pin" ? "off" : "one-time-code"}
                  maxLength={step === "pin" ? 4 : 8}
                  value={values[step] ?? ""}
                  onChange={(e) => set(step, digitsOf(e.target.value))}
                  className={`${inputClass} tracking-widest tabular-nums`}
                />
              )
            }
          </Field>
        )}
        {failure && (
          <p role="alert" className={alertError}>
            {failure}
          </p>
        )}
        <button type="submit" disabled={submit.isPending} className={buttonPrimary}>
          {submit.isPending ? (
            <>
              <Spinner /> {s.sending}
            </>
          ) : (
            submitLabel
          )}
        </button>
        {onBack && (
          <button
            type="button"
            onClick={onBack}
            disabled={submit.isPending}
            className={`${buttonSecondary} w-full`}
          >
            {backLabel}
          </button>
        )}
      </CheckoutForm>
    </div>
  );
}
