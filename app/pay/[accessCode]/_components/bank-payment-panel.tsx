"use client";

import { useQuery } from "@tanstack/react-query";
import { type FormEvent, useContext, useId, useLayoutEffect, useMemo, useRef, useState } from "react";
import { Combobox } from "@/components/ui/combobox";
import { Field } from "@/components/ui/field";
import { StepHeading } from "@/components/ui/step-heading";
import { alertError, buttonPrimary, buttonSecondary, inputClass } from "@/components/ui/styles";
import { useHydrated } from "@/components/ui/use-hydrated";
import { fmt } from "@/lib/i18n/locales";
import { checkoutApi } from "./api";
import { CheckoutForm } from "./checkout-form";
import { SelectedChannelContext, useCheckout } from "./context";
import { errorText } from "./error-text";
import { NotApproved } from "./not-approved";
import { problemText } from "./problem-text";
import { WithQuery } from "./query-client";
import { SandboxAuthorization } from "./sandbox-actions";
import { Spinner } from "./spinner";
import { useCharge } from "./use-charge";
import { useStatusLeft } from "./use-status-left";
import { withAmount } from "./with-amount";

type Waiting = { bankCode: string; bankName: string };

function BankPaymentPanelBody() {
  const active = useContext(SelectedChannelContext) === "bank_payment";
  const { view, record, applyStatus, t, locale, money, posted } = useCheckout();
  const b = t.bankPayment;
  const id = useId();
  const [bankCode, setBankCode] = useState<string | null>(null);
  const here = posted?.channel === "bank_payment" ? posted.problem : null;
  const [pickError, setPickError] = useState<string | null>(() =>
    here === "choose_bank" ? b.chooseBank : null,
  );
  const [postedProblem] = useState(() =>
    here && here !== "choose_bank" && here !== "not_approved" ? problemText(here, t, locale).message : null,
  );
  // The bank asked, as the server rendered the page (a reload, or the form posted before the code ran).
  const [waiting, setWaiting] = useState<Waiting | null>(() =>
    record.status === "awaiting_bank_authorization" && view.attempt?.kind === "bank_payment"
      ? view.attempt.result
      : null,
  );
  const [declined, setDeclined] = useState(here === "not_approved");

  // The server renders a plain <select> of the banks, which the browser posts by itself; once this code has
  // hydrated the page, the searchable picker replaces it, keeping a bank already chosen (read as hydration
  // commits, before the picker's render). A panel first opened after hydration has the picker at once.
  const plainPicker = useRef<HTMLSelectElement>(null);
  const searchable = useHydrated();
  useLayoutEffect(() => {
    const chosen = plainPicker.current?.value;
    if (chosen) setBankCode(chosen);
  }, []);

  // Loaded when the tab is first opened, then kept.
  const banks = useQuery({
    queryKey: ["banks", view.accessCode],
    queryFn: () => checkoutApi.banks(view.accessCode),
    enabled: active,
    staleTime: Number.POSITIVE_INFINITY,
  });
  const options = useMemo(
    () => (banks.data ?? []).map((b) => ({ value: b.code, label: b.name })),
    [banks.data],
  );

  const request = useCharge((code: string, key) => checkoutApi.bankPayment(view.accessCode, code, key), {
    onSuccess: async (result) => {
      setDeclined(false);
      await applyStatus({ status: "awaiting_bank_authorization" });
      setWaiting(result);
    },
  });

  // The bank's answer arrives through the status poll: back to `pending` means the request was declined
  // (or replaced); another waiting status means the customer moved on to another channel.
  useStatusLeft(waiting !== null, "awaiting_bank_authorization", (status) => {
    setWaiting(null);
    if (status === "pending") setDeclined(true);
  });

  const total = money(view.totals.transfer);

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (request.isPending) return;
    if (!bankCode) {
      setPickError(b.chooseBank);
      document.getElementById(`${id}-bank`)?.focus();
      return;
    }
    setPickError(null);
    request.mutate(bankCode);
  }

  if (waiting) {
    return (
      <div key="waiting">
        <StepHeading>{b.approveTitle}</StepHeading>
        {/* Said once: the heading asks, this says where and how much. */}
        <div className="mt-4 flex items-center gap-3 rounded-lg bg-slate-50 p-4 text-sm text-slate-800 ring-1 ring-slate-200">
          <Spinner className="size-5" />
          <p data-testid="bank-payment-waiting">
            {withAmount(
              fmt(b.approveBody, { bank: waiting.bankName }),
              "{total}",
              <strong className="font-semibold">{total}</strong>,
            )}
          </p>
        </div>
        <button type="button" onClick={() => setWaiting(null)} className={`mt-4 ${buttonSecondary}`}>
          {b.differentBank}
        </button>
        <SandboxAuthorization title={t.sandbox.playApp} channel="bank_payment" />
      </div>
    );
  }

  return (
    <div key="form">
      <StepHeading>{b.title}</StepHeading>
      <p className="mt-1 text-sm text-slate-700">
        {withAmount(b.intro, "{total}", <strong className="font-semibold text-slate-900">{total}</strong>)}
      </p>
      {declined && <NotApproved advice={b.declinedAdvice} />}
      {(request.error || postedProblem) && (
        <p role="alert" className={`mt-4 ${alertError}`}>
          {request.error ? errorText(request.error, t, locale) : postedProblem}
        </p>
      )}
      <CheckoutForm intent="bank_payment" onSubmit={onSubmit} className="mt-4 space-y-4">
        <Field
          id={`${id}-bank`}
          label={b.yourBank}
          hint={banks.isPending && active ? b.loadingBanks : b.typeToSearch}
          error={pickError}
        >
          {(aria) =>
            searchable ? (
              <Combobox
                aria={aria}
                options={options}
                value={bankCode}
                onChange={(code) => {
                  setBankCode(code);
                  if (code) setPickError(null);
                }}
                placeholder={b.searchBanks}
                listLabel={b.banks}
                noMatch={b.noMatch}
              />
            ) : (
              <select {...aria} ref={plainPicker} name="bankCode" defaultValue="" className={inputClass}>
                <option value="" disabled>
                  {b.searchBanks}
                </option>
                {view.paymentBanks.map((bank) => (
                  <option key={bank.code} value={bank.code}>
                    {bank.name}
                  </option>
                ))}
              </select>
            )
          }
        </Field>
        {banks.isError && (
          <p role="alert" className={alertError}>
            {b.banksFailed}{" "}
            <button type="button" className="font-semibold underline" onClick={() => banks.refetch()}>
              {t.tryAgain}
            </button>
          </p>
        )}
        <button type="submit" disabled={request.isPending} className={buttonPrimary}>
          {request.isPending ? (
            <>
              <Spinner /> {b.contacting}
            </>
          ) : (
            fmt(t.pay, { total })
          )}
        </button>
      </CheckoutForm>
    </div>
  );
}

/** BankPaymentPanel, with the checkout's TanStack Query client (loaded with this chunk, not with the first screen). */
export function BankPaymentPanel() {
  return (
    <WithQuery>
      <BankPaymentPanelBody />
    </WithQuery>
  );
}
