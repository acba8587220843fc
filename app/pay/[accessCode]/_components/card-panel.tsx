"use client";

import { type ChangeEvent, type FormEvent, useEffect, useId, useRef, useState } from "react";
import { Field } from "@/components/ui/field";
import { StepHeading } from "@/components/ui/step-heading";
import { buttonPrimary, buttonSecondary, inputClass } from "@/components/ui/styles";
import { useHydrated } from "@/components/ui/use-hydrated";
import {
  BRAND_LABEL,
  brandOf,
  cardNumberError,
  cvvError,
  digitsOf,
  expiryError,
  formatCardNumber,
  formatExpiry,
  parseExpiry,
} from "@/lib/checkout/card";
import { formatMoney } from "@/lib/checkout/format";
import { type CardResult, checkoutApi } from "./api";
import { useCheckout } from "./context";
import { Spinner } from "./spinner";
import { useCharge } from "./use-charge";

/** What a declined card means to the customer, by the API's `reason`. */
const DECLINE: Record<string, string> = {
  card_declined: "Your bank declined this card.",
  insufficient_funds: "This card does not have enough funds.",
  invalid_otp: "The one-time password was not correct.",
  otp_expired: "The one-time password has expired.",
  processor_error: "The card network did not answer.",
};

type Fields = { number: string; expiry: string; cvv: string };
type Problem = { title: string; message: string; at?: number };

function declineOf(result: Pick<CardResult, "reason" | "message">): Problem {
  return {
    title: "Payment declined",
    message: `${(result.reason && DECLINE[result.reason]) || result.message || "The card was declined."} Nothing was charged.`,
  };
}

export function CardPanel() {
  const { view, record, applyStatus, focusTabs } = useCheckout();
  const id = useId();
  const [step, setStep] = useState<"card" | "otp">(record.status === "awaiting_otp" ? "otp" : "card");
  const [fields, setFields] = useState<Fields>({ number: "", expiry: "", cvv: "" });
  const [touched, setTouched] = useState<Record<keyof Fields, boolean>>({
    number: false,
    expiry: false,
    cvv: false,
  });
  const [problem, setProblem] = useState<Problem | null>(null);
  const [otp, setOtp] = useState("");
  const [otpError, setOtpError] = useState<string | null>(null);
  const numberRef = useRef<HTMLInputElement>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const hydrated = useHydrated();

  // What the customer typed into the server-rendered form before the page's code arrived is kept, not
  // wiped by the first render (a fast typist on a slow phone).
  useEffect(() => {
    const typed = (field: keyof Fields) =>
      formRef.current?.querySelector<HTMLInputElement>(`[data-field="${field}"]`)?.value ?? "";
    const early = { number: typed("number"), expiry: typed("expiry"), cvv: typed("cvv") };
    if (early.number || early.expiry || early.cvv) {
      setFields({
        number: formatCardNumber(early.number),
        expiry: formatExpiry(early.expiry),
        cvv: digitsOf(early.cvv),
      });
    }
  }, []);
  const total = formatMoney(view.totals.card, view.currency);

  const brand = brandOf(digitsOf(fields.number));
  const errors: Record<keyof Fields, string | null> = {
    number: cardNumberError(fields.number),
    expiry: expiryError(fields.expiry),
    cvv: cvvError(fields.cvv, brand),
  };
  const shown = (name: keyof Fields) => (touched[name] ? errors[name] : null);

  const charge = useCharge(
    (card: { number: string; expiryMonth: number; expiryYear: number; cvv: string }, key) =>
      checkoutApi.card(view.accessCode, card, key),
    {
      onSuccess: async (result) => {
        if (result.status === "success")
          return applyStatus({ status: "success", channel: "card", total: view.totals.card });
        if (result.status === "awaiting_otp") {
          setOtp("");
          setOtpError(null);
          setStep("otp");
          return applyStatus({ status: "awaiting_otp" });
        }
        setProblem({ ...declineOf(result), at: Date.now() });
      },
      onError: (err) => setProblem({ title: "Payment not completed", message: err.message, at: Date.now() }),
    },
  );

  const confirmOtp = useCharge((code: string, key) => checkoutApi.otp(view.accessCode, code, key), {
    onSuccess: async (result) => {
      if (result.status === "success")
        return applyStatus({ status: "success", channel: "card", total: view.totals.card });
      backToCard(declineOf(result));
      await applyStatus({ status: "pending" });
    },
    onError: (err) => {
      if (err.code === "invalid_state") {
        backToCard({ title: "Payment not completed", message: err.message });
        void applyStatus({});
      } else setOtpError(err.message);
    },
  });

  function backToCard(next: Problem | null) {
    setProblem(next && { ...next, at: Date.now() });
    setFields((f) => ({ ...f, cvv: "" }));
    setTouched({ number: false, expiry: false, cvv: false });
    setStep("card");
  }

  /**
   * A field shows its error once the customer leaves it with something typed, except when it is left by
   * pressing Pay: the submit shows every error at once anyway, and an error appearing on the way would push
   * the button from under the pointer (the press lands on the button, the release below it, and the click is
   * lost: on a phone the first tap on Pay did nothing). A press is known from its pointerdown, which comes
   * before the blur in every browser (Safari and Firefox on macOS do not focus a clicked button, so the
   * blur's relatedTarget cannot tell); leaving by Tab still shows the error.
   */
  const pressingPay = useRef(false);
  function pressPay() {
    pressingPay.current = true;
    window.addEventListener(
      "pointerup",
      () => {
        pressingPay.current = false;
      },
      { once: true },
    );
  }
  function touch(field: keyof Fields) {
    if (pressingPay.current) return;
    setTouched((t) => ({ ...t, [field]: fields[field] !== "" || t[field] }));
  }

  function tryAgain() {
    setProblem(null);
    setFields({ number: "", expiry: "", cvv: "" });
    setTouched({ number: false, expiry: false, cvv: false });
    requestAnimationFrame(() => numberRef.current?.focus());
  }

  function onNumber(event: ChangeEvent<HTMLInputElement>) {
    const input = event.target;
    const caret = input.selectionStart ?? input.value.length;
    const atEnd = caret >= input.value.length;
    const digitsBefore = digitsOf(input.value.slice(0, caret)).length;
    const formatted = formatCardNumber(input.value);
    setFields((f) => ({ ...f, number: formatted }));
    if (atEnd) return;
    // Keep the caret after the same digit when editing in the middle of a grouped number.
    requestAnimationFrame(() => {
      let pos = 0;
      for (let seen = 0; pos < formatted.length && seen < digitsBefore; pos++) {
        if (/\d/.test(formatted[pos] ?? "")) seen++;
      }
      input.setSelectionRange(pos, pos);
    });
  }

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (charge.isPending) return;
    setTouched({ number: true, expiry: true, cvv: true });
    const first = (Object.keys(errors) as Array<keyof Fields>).find((k) => errors[k]);
    if (first) {
      formRef.current?.querySelector<HTMLElement>(`[data-field="${first}"]`)?.focus();
      return;
    }
    const expiry = parseExpiry(fields.expiry);
    if (!expiry) return;
    setProblem(null);
    charge.mutate({
      number: digitsOf(fields.number),
      expiryMonth: expiry.month,
      expiryYear: expiry.year,
      cvv: fields.cvv,
    });
  }

  function onOtpSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (confirmOtp.isPending) return;
    if (!/^\d{4,8}$/.test(otp)) {
      setOtpError("Enter the code from your bank: 4 to 8 digits.");
      return;
    }
    setOtpError(null);
    confirmOtp.mutate(otp);
  }

  if (step === "otp") {
    return (
      <div key="otp">
        <StepHeading>Enter the one-time password</StepHeading>
        <p className="mt-1 text-sm text-slate-700">
          Your bank sent a code to the phone number linked to your card.
          {view.testMode && " In test mode the code is 123456."}
        </p>
        <form onSubmit={onOtpSubmit} noValidate className="mt-4 space-y-4">
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
            onClick={() => backToCard(null)}
            disabled={confirmOtp.isPending}
            className={`${buttonSecondary} w-full`}
          >
            Use a different card
          </button>
        </form>
      </div>
    );
  }

  return (
    <div key="card">
      <StepHeading>Pay with card</StepHeading>
      <p className="mt-1 text-sm text-slate-700">
        You pay <strong className="font-semibold text-slate-900">{total}</strong>
        {!/^0(\.0+)?$/.test(view.fees.card) && !view.merchantBearsCost
          ? `, including a ${formatMoney(view.fees.card, view.currency)} card fee.`
          : "."}
      </p>
      {problem && (
        <div key={problem.at} className="mt-4 rounded-lg bg-red-50 p-4 text-red-900 ring-1 ring-red-200">
          <StepHeading level={3} className="text-base font-semibold">
            {problem.title}
          </StepHeading>
          <p className="mt-1 text-sm">{problem.message}</p>
          <div className="mt-3 flex flex-wrap gap-2">
            <button type="button" onClick={tryAgain} className={buttonSecondary}>
              Try another card
            </button>
            {view.channels.length > 1 && (
              <button type="button" onClick={focusTabs} className={buttonSecondary}>
                Pay another way
              </button>
            )}
          </div>
        </div>
      )}
      <form ref={formRef} onSubmit={onSubmit} noValidate className="mt-4 space-y-4">
        <Field
          id={`${id}-number`}
          label="Card number"
          error={shown("number")}
          aside={
            <span className="text-sm font-medium text-slate-700" aria-live="polite">
              {BRAND_LABEL[brand]}
            </span>
          }
        >
          {(aria) => (
            <input
              {...aria}
              ref={numberRef}
              data-field="number"
              inputMode="numeric"
              autoComplete="cc-number"
              placeholder="1234 5678 9012 3456"
              maxLength={23}
              value={fields.number}
              onChange={onNumber}
              onBlur={() => touch("number")}
              className={`${inputClass} tabular-nums`}
            />
          )}
        </Field>
        <div className="grid grid-cols-2 gap-3">
          <Field id={`${id}-expiry`} label="Expiry (MM/YY)" error={shown("expiry")}>
            {(aria) => (
              <input
                {...aria}
                data-field="expiry"
                inputMode="numeric"
                autoComplete="cc-exp"
                placeholder="MM/YY"
                maxLength={5}
                value={fields.expiry}
                onChange={(e) => setFields((f) => ({ ...f, expiry: formatExpiry(e.target.value) }))}
                onBlur={() => touch("expiry")}
                className={`${inputClass} tabular-nums`}
              />
            )}
          </Field>
          <Field id={`${id}-cvv`} label="CVV" error={shown("cvv")}>
            {(aria) => (
              <input
                {...aria}
                data-field="cvv"
                inputMode="numeric"
                autoComplete="cc-csc"
                placeholder={brand === "amex" ? "4 digits" : "3 digits"}
                maxLength={4}
                value={fields.cvv}
                onChange={(e) => setFields((f) => ({ ...f, cvv: digitsOf(e.target.value) }))}
                onBlur={() => touch("cvv")}
                className={`${inputClass} tabular-nums`}
              />
            )}
          </Field>
        </div>
        <button
          type="submit"
          disabled={!hydrated || charge.isPending}
          onPointerDown={pressPay}
          className={buttonPrimary}
        >
          {charge.isPending ? (
            <>
              <Spinner /> Processing…
            </>
          ) : (
            `Pay ${total}`
          )}
        </button>
      </form>
      {view.testMode && (
        <details className="mt-4 text-sm text-slate-700">
          <summary className="cursor-pointer font-medium">Test cards</summary>
          <ul className="mt-2 space-y-1">
            <li>
              <span className="font-mono">4242 4242 4242 4242</span>: succeeds
            </li>
            <li>
              <span className="font-mono">4000 0000 0000 0002</span>: declined
            </li>
            <li>
              <span className="font-mono">4000 0000 0000 9995</span>: insufficient funds
            </li>
            <li>
              <span className="font-mono">4000 0000 0000 3220</span>: asks for the code 123456
            </li>
          </ul>
          <p className="mt-1">Any future expiry date and any 3-digit CVV.</p>
        </details>
      )}
    </div>
  );
}
