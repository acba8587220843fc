"use client";

import { useQuery } from "@tanstack/react-query";
import { type FormEvent, useId, useMemo, useState } from "react";
import { Combobox } from "@/components/ui/combobox";
import { Field } from "@/components/ui/field";
import { StepHeading } from "@/components/ui/step-heading";
import { alertError, buttonPrimary, buttonSecondary } from "@/components/ui/styles";
import { fmt } from "@/lib/i18n/locales";
import { type BankPaymentResult, checkoutApi } from "./api";
import { useCheckout } from "./context";
import { errorText } from "./error-text";
import { NotApproved } from "./not-approved";
import { WithQuery } from "./query-client";
import { SandboxAuthorization } from "./sandbox-actions";
import { Spinner } from "./spinner";
import { useCharge } from "./use-charge";
import { useStatusLeft } from "./use-status-left";
import { withAmount } from "./with-amount";

function BankPaymentPanelBody({ active }: { active: boolean }) {
  const { view, applyStatus, t, locale, money } = useCheckout();
  const b = t.bankPayment;
  const id = useId();
  const [bankCode, setBankCode] = useState<string | null>(null);
  const [pickError, setPickError] = useState<string | null>(null);
  const [waiting, setWaiting] = useState<BankPaymentResult | null>(null);
  const [declined, setDeclined] = useState(false);

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
        <SandboxAuthorization title={t.sandbox.playApp} />
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
      {request.error && (
        <p role="alert" className={`mt-4 ${alertError}`}>
          {errorText(request.error, t, locale)}
        </p>
      )}
      <form onSubmit={onSubmit} noValidate className="mt-4 space-y-4">
        <Field
          id={`${id}-bank`}
          label={b.yourBank}
          hint={banks.isPending && active ? b.loadingBanks : b.typeToSearch}
          error={pickError}
        >
          {(aria) => (
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
          )}
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
      </form>
    </div>
  );
}

/** BankPaymentPanel, with the checkout's TanStack Query client (loaded with this chunk, not with the first screen). */
export function BankPaymentPanel({ active }: { active: boolean }) {
  return (
    <WithQuery>
      <BankPaymentPanelBody active={active} />
    </WithQuery>
  );
}
