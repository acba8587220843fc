"use client";

import { type FormEvent, useId, useRef, useState, useSyncExternalStore } from "react";
import { CopyButton } from "@/components/ui/copy-button";
import { Field } from "@/components/ui/field";
import { StepHeading } from "@/components/ui/step-heading";
import { alertError, buttonPrimary, buttonSecondary, inputClass } from "@/components/ui/styles";
import { fmt } from "@/lib/i18n/locales";
import { checkoutApi } from "./api";
import { BankPicker } from "./bank-picker";
import { CheckoutForm } from "./checkout-form";
import { useCheckout } from "./context";
import { errorText } from "./error-text";
import { NotApproved } from "./not-approved";
import { problemText } from "./problem-text";
import { SandboxAuthorization } from "./sandbox-actions";
import { Spinner } from "./spinner";
import { useCharge } from "./use-charge";
import { useStatusLeft } from "./use-status-left";
import { withAmount } from "./with-amount";

/** The API's rule (lib/channels/schemas.ts UssdBody): 10-15 digits after spaces, dashes and brackets go. */
const phoneDigits = (value: string) => value.replace(/[\s()-]/g, "");
const PHONE = /^\+?\d{10,15}$/;
const DEFAULT_BANK = "058";

const coarse = "(pointer: coarse)";

/**
 * Whether this device can dial a tel: link with a tap: a touch-first device (a phone). False on the server and
 * on a desktop, where "Tap to dial" would open a calling app or nothing at all.
 */
function useCanDial(): boolean {
  return useSyncExternalStore(
    (onChange) => {
      const query = window.matchMedia(coarse);
      query.addEventListener("change", onChange);
      return () => query.removeEventListener("change", onChange);
    },
    () => window.matchMedia(coarse).matches,
    () => false,
  );
}

/** "*966*000*1#" → "star 9 6 6 star 0 0 0 star 1 hash", in the page's words for * and #. */
function spokenKeys(code: string, words: { star: string; hash: string }): string {
  return Array.from(code, (key) => (key === "*" ? words.star : key === "#" ? words.hash : key)).join(" ");
}

type Code = { ussdCode: string; dialUrl: string; bankName: string };

export function UssdPanel() {
  const { view, record, applyStatus, t, locale, money, posted } = useCheckout();
  const u = t.ussd;
  const id = useId();
  const formRef = useRef<HTMLFormElement>(null);
  const banks = view.ussdBanks;
  const [bankCode, setBankCode] = useState(
    banks.some((b) => b.code === DEFAULT_BANK) ? DEFAULT_BANK : (banks[0]?.code ?? ""),
  );
  const [phone, setPhone] = useState("");
  const here = posted?.channel === "ussd" ? posted.problem : null;
  const [phoneError, setPhoneError] = useState<string | null>(() =>
    here === "phone_invalid" ? u.phoneInvalid : null,
  );
  const [postedProblem] = useState(() =>
    here && here !== "phone_invalid" && here !== "not_approved" ? problemText(here, t, locale).message : null,
  );
  // The code as the server rendered the page (a reload, or the form posted before the code ran).
  const [code, setCode] = useState<Code | null>(() =>
    record.status === "awaiting_ussd" && view.attempt?.kind === "ussd" ? view.attempt.result : null,
  );
  const [declined, setDeclined] = useState(here === "not_approved");

  const request = useCharge(
    (body: { phoneNumber: string; bankCode: string }, key) => checkoutApi.ussd(view.accessCode, body, key),
    {
      onSuccess: async (result) => {
        setDeclined(false);
        await applyStatus({ status: "awaiting_ussd" });
        setCode(result);
      },
    },
  );

  useStatusLeft(code !== null, "awaiting_ussd", (status) => {
    setCode(null);
    if (status === "pending") setDeclined(true);
  });

  const total = money(view.totals.transfer);
  const canDial = useCanDial();

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (request.isPending) return;
    const phoneNumber = phoneDigits(phone);
    if (!PHONE.test(phoneNumber)) {
      setPhoneError(phone.trim() === "" ? u.phoneEmpty : u.phoneInvalid);
      formRef.current?.querySelector<HTMLElement>('[name="phone"]')?.focus();
      return;
    }
    setPhoneError(null);
    request.mutate({ phoneNumber, bankCode });
  }

  if (code) {
    return (
      <div key={`code-${code.ussdCode}`}>
        <StepHeading>{u.dialTitle}</StepHeading>
        <p className="mt-1 text-sm text-slate-700">{fmt(u.dialBody, { bank: code.bankName, total })}</p>
        <div className="mt-4 rounded-lg bg-slate-50 p-4 text-center ring-1 ring-slate-200">
          {/* Read out one key at a time, with * and # named: "star 9 6 6 star…", not "966". */}
          <p className="font-mono text-2xl font-bold tracking-wide break-all text-slate-900 sm:text-4xl">
            <span aria-hidden="true" data-testid="ussd-code">
              {code.ussdCode}
            </span>
            <span className="sr-only">{fmt(u.codeSpoken, { keys: spokenKeys(code.ussdCode, u) })}</span>
          </p>
          <div className="mt-4 flex flex-wrap items-center justify-center gap-2">
            {/* A tel: link only where a tap can dial (a phone); elsewhere the code is read off the screen. */}
            {canDial && (
              <a href={code.dialUrl} className={`${buttonPrimary} w-auto`}>
                {fmt(u.tapToDial, { code: code.ussdCode })}
              </a>
            )}
            <CopyButton value={code.ussdCode} what={u.copyCode} labels={t.copy} />
          </div>
          {!canDial && <p className="mt-3 text-sm text-slate-700">{u.typeIntoDialler}</p>}
        </div>
        <p className="mt-4 flex items-center gap-2 text-sm text-slate-700">
          <Spinner /> {u.waiting}
        </p>
        <button type="button" onClick={() => setCode(null)} className={`mt-4 ${buttonSecondary}`}>
          {u.startAgain}
        </button>
        <SandboxAuthorization title={t.sandbox.playPhone} channel="ussd" />
      </div>
    );
  }

  return (
    <div key="form">
      <StepHeading>{u.title}</StepHeading>
      <p className="mt-1 text-sm text-slate-700">
        {withAmount(u.intro, "{total}", <strong className="font-semibold text-slate-900">{total}</strong>)}
      </p>
      {declined && <NotApproved advice={u.declinedAdvice} />}
      {(request.error || postedProblem) && (
        <p role="alert" className={`mt-4 ${alertError}`}>
          {request.error ? errorText(request.error, t, locale) : postedProblem}
        </p>
      )}
      <CheckoutForm intent="ussd" formRef={formRef} onSubmit={onSubmit} className="mt-4 space-y-4">
        <Field id={`${id}-bank`} label={u.yourBank} hint={t.bankPayment.typeToSearch}>
          {(aria) => (
            <BankPicker
              aria={aria}
              banks={banks}
              value={bankCode}
              onChange={setBankCode}
              name="bank"
              placeholder={false}
            />
          )}
        </Field>
        <Field id={`${id}-phone`} label={u.phone} hint={u.phoneHint} error={phoneError}>
          {(aria) => (
            <input
              {...aria}
              name="phone"
              type="tel"
              inputMode="tel"
              autoComplete="tel"
              placeholder="0803 123 4567"
              value={phone}
              onChange={(e) => setPhone(e.target.value)}
              className={inputClass}
            />
          )}
        </Field>
        <button type="submit" disabled={request.isPending || !bankCode} className={buttonPrimary}>
          {request.isPending ? (
            <>
              <Spinner /> {u.gettingCode}
            </>
          ) : (
            u.getCode
          )}
        </button>
      </CheckoutForm>
    </div>
  );
}
