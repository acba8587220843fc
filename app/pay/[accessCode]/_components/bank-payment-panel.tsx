"use client";

import { useQuery } from "@tanstack/react-query";
import { type FormEvent, useContext, useId, useState } from "react";
import { Field } from "@/components/ui/field";
import { StepHeading } from "@/components/ui/step-heading";
import { alertError, buttonPrimary, buttonSecondary, inputClass } from "@/components/ui/styles";
import { isBankStep } from "@/lib/checkout/bank-steps";
import { fmt } from "@/lib/i18n/locales";
import { type BankPaymentResult, type ChargeAction, checkoutApi, newIdempotencyKey } from "./api";
import { BankPicker } from "./bank-picker";
import { CheckoutForm } from "./checkout-form";
import { SelectedChannelContext, useCheckout } from "./context";
import { errorText } from "./error-text";
import { NotApproved } from "./not-approved";
import { problemText } from "./problem-text";
import { WithQuery } from "./query-client";
import { RedirectStep } from "./redirect-step";
import { SandboxAuthorization } from "./sandbox-actions";
import { Spinner } from "./spinner";
import { StepForm } from "./step-form";
import { useCharge } from "./use-charge";
import { useStatusLeft } from "./use-status-left";
import { withAmount } from "./with-amount";

type Waiting = { bankName: string; action?: ChargeAction };

function BankPaymentPanelBody() {
  const active = useContext(SelectedChannelContext) === "bank_payment";
  const { view, record, applyStatus, t, locale, money, posted } = useCheckout();
  const b = t.bankPayment;
  const id = useId();
  const [bankCode, setBankCode] = useState<string | null>(null);
  const [accountNumber, setAccountNumber] = useState("");
  // A form posted without the page's code comes back with its problem in the address.
  const here = posted?.channel === "bank_payment" ? posted.problem : null;
  const [pickError, setPickError] = useState<string | null>(() =>
    here === "choose_bank" ? b.chooseBank : null,
  );
  const [postedProblem] = useState(() =>
    here && here !== "choose_bank" && here !== "not_approved" ? problemText(here, t, locale).message : null,
  );
  const [accountError, setAccountError] = useState<string | null>(null);
  // A reload (or a form posted before the code ran) while the bank asks for a step, or waits for the
  // customer's approval, shows that step again, as the server rendered it.
  const [waiting, setWaiting] = useState<Waiting | null>(() => {
    if (record.action?.channel === "bank_payment") return { bankName: "", action: record.action };
    if (record.status === "awaiting_bank_authorization" && view.attempt?.kind === "bank_payment")
      return { bankName: view.attempt.result.bankName };
    return null;
  });
  const [declined, setDeclined] = useState<string | null>(here === "not_approved" ? "" : null);

  /** What the bank answered: wait for its approval, a step, paid, or refused. */
  function onResult(result: BankPaymentResult) {
    if (result.status === "success") {
      setWaiting(null);
      void applyStatus({ status: "success", channel: "bank_payment", total: view.totals.transfer });
      return;
    }
    if (result.status === "failed") {
      setWaiting(null);
      setDeclined(result.message);
      void applyStatus({ status: "pending", action: undefined });
      return;
    }
    setDeclined(null);
    setWaiting({ bankName: result.bankName, action: result.action });
    void applyStatus({
      status: "awaiting_bank_authorization",
      action: result.action && { channel: "bank_payment", ...result.action },
    });
  }

  // The server's list comes with the page (the same as GET /payment/checkout/banks), so opening the tab
  // waits for nothing; asked for only when the page came without one.
  const banks = useQuery({
    queryKey: ["banks", view.accessCode],
    queryFn: () => checkoutApi.banks(view.accessCode),
    enabled: active,
    staleTime: Number.POSITIVE_INFINITY,
    ...(view.paymentBanks.length > 0 && { initialData: view.paymentBanks }),
  });
  const request = useCharge(
    (body: { bankCode: string; accountNumber?: string }, key) =>
      checkoutApi.bankPayment(view.accessCode, body, key),
    { onSuccess: onResult },
  );

  // The bank's answer arrives through the status poll: back to `pending` means the request was declined
  // (or replaced); another waiting status means the customer moved on to another channel.
  useStatusLeft(waiting !== null, "awaiting_bank_authorization", (status) => {
    setWaiting(null);
    if (status === "pending") setDeclined("");
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
    if (view.bankNeedsAccount && !/^\d{10}$/.test(accountNumber)) {
      setAccountError(b.accountNumberInvalid);
      document.getElementById(`${id}-account`)?.focus();
      return;
    }
    setAccountError(null);
    request.mutate(view.bankNeedsAccount ? { bankCode, accountNumber } : { bankCode });
  }

  const step = waiting?.action;
  if (step?.step === "redirect" && step.url) {
    return (
      <RedirectStep
        intent="bank_check"
        url={step.url}
        check={(key) => checkoutApi.bankCheck(view.accessCode, key)}
        onDone={onResult}
        backLabel={b.differentBank}
        onBack={() => setWaiting(null)}
      />
    );
  }
  if (step && isBankStep(step.step)) {
    const answer = step.step;
    return (
      <StepForm<BankPaymentResult>
        intent="bank_step"
        step={answer}
        message={step.message}
        texts={
          answer === "pin"
            ? { title: b.pinTitle, body: b.pinBody, label: b.pinLabel, invalid: b.pinInvalid }
            : answer === "phone"
              ? { body: b.phoneBody }
              : undefined
        }
        send={(values, key) => checkoutApi.bankStep(view.accessCode, answer, values, key)}
        onDone={onResult}
        onFailed={(err) => {
          // Answered already (a second tap, another tab): show where the payment stands now, the next step.
          if (err.code === "step_already_answered") {
            void checkoutApi
              .bankCheck(view.accessCode, { idempotencyKey: newIdempotencyKey() })
              .then(onResult, () => {});
            return true;
          }
          if (err.code !== "invalid_state") return false;
          setWaiting(null);
          setDeclined(err.message);
          return true;
        }}
        submitLabel={fmt(b.pay, { total })}
        backLabel={b.differentBank}
        onBack={() => setWaiting(null)}
      />
    );
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
              fmt(b.approveBody, { bank: waiting.bankName || b.yourBank }),
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
      {declined !== null && (
        <NotApproved
          advice={declined && locale === "en" ? `${declined} ${b.declinedAdvice}` : b.declinedAdvice}
        />
      )}
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
          {(aria) => (
            <BankPicker
              aria={aria}
              banks={banks.data ?? view.paymentBanks}
              value={bankCode ?? ""}
              onChange={(code) => {
                setBankCode(code);
                if (code) setPickError(null);
              }}
              name="bankCode"
            />
          )}
        </Field>
        {view.bankNeedsAccount && (
          <Field id={`${id}-account`} label={b.accountNumber} hint={b.accountNumberHint} error={accountError}>
            {(aria) => (
              <input
                {...aria}
                data-field="accountNumber"
                name="accountNumber"
                inputMode="numeric"
                autoComplete="off"
                maxLength={10}
                value={accountNumber}
                onChange={(e) => setAccountNumber(e.target.value.replace(/\D/g, ""))}
                className={`${inputClass} tabular-nums`}
              />
            )}
          </Field>
        )}
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
