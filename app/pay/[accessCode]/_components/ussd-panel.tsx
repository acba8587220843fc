"use client";

import { type FormEvent, useId, useRef, useState, useSyncExternalStore } from "react";
import { CopyButton } from "@/components/ui/copy-button";
import { Field } from "@/components/ui/field";
import { StepHeading } from "@/components/ui/step-heading";
import { alertError, buttonPrimary, buttonSecondary, inputClass } from "@/components/ui/styles";
import { formatMoney } from "@/lib/checkout/format";
import { checkoutApi, type UssdResult } from "./api";
import { useCheckout } from "./context";
import { NotApproved } from "./not-approved";
import { SandboxAuthorization } from "./sandbox-actions";
import { Spinner } from "./spinner";
import { useCharge } from "./use-charge";
import { useStatusLeft } from "./use-status-left";

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

export function UssdPanel() {
  const { view, applyStatus } = useCheckout();
  const id = useId();
  const formRef = useRef<HTMLFormElement>(null);
  const banks = view.ussdBanks;
  const [bankCode, setBankCode] = useState(
    banks.some((b) => b.code === DEFAULT_BANK) ? DEFAULT_BANK : (banks[0]?.code ?? ""),
  );
  const [phone, setPhone] = useState("");
  const [phoneError, setPhoneError] = useState<string | null>(null);
  const [code, setCode] = useState<UssdResult | null>(null);
  const [declined, setDeclined] = useState(false);

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

  const total = formatMoney(view.totals.transfer, view.currency);
  const canDial = useCanDial();

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (request.isPending) return;
    const phoneNumber = phoneDigits(phone);
    if (!PHONE.test(phoneNumber)) {
      setPhoneError(
        phone.trim() === ""
          ? "Enter the phone number registered with your bank."
          : "Enter a phone number of 10 to 15 digits, like 0803 123 4567.",
      );
      formRef.current?.querySelector<HTMLElement>('[name="phone"]')?.focus();
      return;
    }
    setPhoneError(null);
    request.mutate({ phoneNumber, bankCode });
  }

  if (code) {
    return (
      <div key={`code-${code.ussdCode}`}>
        <StepHeading>Dial this code on your phone</StepHeading>
        <p className="mt-1 text-sm text-slate-700">
          Dial it on the phone registered with {code.bankName}, then follow the prompts to approve {total}.
        </p>
        <div className="mt-4 rounded-lg bg-slate-50 p-4 text-center ring-1 ring-slate-200">
          <p className="font-mono text-2xl font-bold tracking-wide break-all text-slate-900 sm:text-4xl">
            {code.ussdCode}
          </p>
          <div className="mt-4 flex flex-wrap items-center justify-center gap-2">
            {/* A tel: link only where a tap can dial (a phone); elsewhere the code is read off the screen. */}
            {canDial && (
              <a href={code.dialUrl} className={`${buttonPrimary} w-auto`}>
                Tap to dial {code.ussdCode}
              </a>
            )}
            <CopyButton value={code.ussdCode} what="USSD code" />
          </div>
          {!canDial && (
            <p className="mt-3 text-sm text-slate-700">
              Type this code into your phone&apos;s dialler and press call.
            </p>
          )}
        </div>
        <p className="mt-4 flex items-center gap-2 text-sm text-slate-700">
          <Spinner /> Waiting for you to approve on your phone. This page updates by itself.
        </p>
        <button type="button" onClick={() => setCode(null)} className={`mt-4 ${buttonSecondary}`}>
          Start again
        </button>
        <SandboxAuthorization title="play the customer on the phone" />
      </div>
    );
  }

  return (
    <div key="form">
      <StepHeading>Pay with a USSD code</StepHeading>
      <p className="mt-1 text-sm text-slate-700">
        Get a code to dial from your phone, no internet needed. You pay{" "}
        <strong className="font-semibold text-slate-900">{total}</strong>.
      </p>
      {declined && <NotApproved advice="Try again or pay another way." />}
      {request.error && (
        <p role="alert" className={`mt-4 ${alertError}`}>
          {request.error.message}
        </p>
      )}
      <form ref={formRef} onSubmit={onSubmit} noValidate className="mt-4 space-y-4">
        <Field id={`${id}-bank`} label="Your bank">
          {(aria) => (
            <select
              {...aria}
              name="bank"
              value={bankCode}
              onChange={(e) => setBankCode(e.target.value)}
              className={inputClass}
            >
              {banks.map((b) => (
                <option key={b.code} value={b.code}>
                  {b.name}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field
          id={`${id}-phone`}
          label="Phone number"
          hint="The number registered with your bank."
          error={phoneError}
        >
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
              <Spinner /> Getting your code…
            </>
          ) : (
            "Get USSD code"
          )}
        </button>
      </form>
    </div>
  );
}
