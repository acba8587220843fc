"use client";

import { useContext, useEffect, useRef, useState } from "react";
import { CopyButton } from "@/components/ui/copy-button";
import { StepHeading } from "@/components/ui/step-heading";
import { alertError, alertWarning, buttonPrimary } from "@/components/ui/styles";
import { useCountdown } from "@/components/ui/use-countdown";
import type { CheckoutView, VirtualAccountView } from "@/lib/checkout/types";
import { clockInWords, formatAccountNumber, formatClock } from "@/lib/i18n/format-details";
import { fmt } from "@/lib/i18n/locales";
import { checkoutApi, newIdempotencyKey } from "./api";
import { CheckoutForm } from "./checkout-form";
import { SelectedChannelContext, useCheckout } from "./context";
import { errorText } from "./error-text";
import { problemText } from "./problem-text";
import { SandboxActions } from "./sandbox-actions";
import { Spinner } from "./spinner";
import { useCharge } from "./use-charge";
import { withAmount } from "./with-amount";

/** Half the amount, as a decimal string with the same digits: a sandbox "wrong amount" (no float involved). */
function halfOf(amount: string): string {
  const [whole = "0", fraction = ""] = amount.split(".");
  const minor = BigInt(whole + fraction) / 2n;
  const text = minor.toString().padStart(fraction.length + 1, "0");
  return fraction.length ? `${text.slice(0, -fraction.length)}.${text.slice(-fraction.length)}` : text;
}

type Shown = { account: VirtualAccountView; deadline: number };

/** The account the server rendered the page with (a reload, or a form posted before the code ran). */
function shownFromServer(view: CheckoutView, status: string): Shown | null {
  const attempt = view.attempt;
  if (status !== "awaiting_transfer" || attempt?.kind !== "bank_transfer") return null;
  // Counted from when this code first runs: the server's expiresInSeconds was right when it rendered.
  return { account: attempt.account, deadline: Date.now() + attempt.account.expiresInSeconds * 1000 };
}

export function TransferPanel() {
  const active = useContext(SelectedChannelContext) === "bank_transfer";
  const { view, record, applyStatus, refresh, t, locale, money, posted } = useCheckout();
  const w = t.transfer;
  const [shown, setShown] = useState<Shown | null>(() => shownFromServer(view, record.status));
  const [postedProblem] = useState(() =>
    posted?.channel === "bank_transfer" ? problemText(posted.problem, t, locale).message : null,
  );
  const [sent, setSent] = useState(false);

  // The account the customer was told has expired, while the "new account" request runs.
  const expiredNumber = useRef<string | null>(null);

  const issue = useCharge(
    async (_: "issue", key) => {
      let account = await checkoutApi.bankTransfer(view.accessCode, key);
      // Asked a moment before the old window closed on the server (this device's countdown may end up to a
      // second early): the same account came back, so ask again once its window has closed.
      if (account.accountNumber === expiredNumber.current && account.expiresInSeconds <= 2) {
        await new Promise((r) => setTimeout(r, (account.expiresInSeconds + 1) * 1000));
        account = await checkoutApi.bankTransfer(view.accessCode, { idempotencyKey: newIdempotencyKey() });
      }
      return account;
    },
    {
      onSuccess: async (account) => {
        const receivedAt = Date.now();
        // The countdown runs on this device's clock. expiresAt is exact when this clock agrees with the
        // server's; expiresInSeconds (whole seconds, read at fetch time) re-syncs it when it does not: past
        // the rounding and the request's latency, a difference means this clock is off.
        const byServerClock = Date.parse(account.expiresAt);
        const byElapsed = receivedAt + account.expiresInSeconds * 1000;
        const skew = byServerClock - byElapsed;
        setShown({ account, deadline: Math.abs(skew) < 1_500 ? byServerClock : byElapsed });
        setSent(false);
        await applyStatus({ status: "awaiting_transfer", amountMismatch: undefined });
      },
    },
  );

  // After a reload (or coming back) while a transfer is awaited, show the same account again: inside its
  // window the API answers the account already issued.
  const restored = useRef(false);
  useEffect(() => {
    if (!active || restored.current || shown || record.status !== "awaiting_transfer") return;
    restored.current = true;
    issue.mutate("issue");
  }, [active, shown, record.status, issue]);

  // The server's window for the account on screen moved (the sandbox clock): follow it from the next poll.
  const polled = record.status === "awaiting_transfer" ? record.transfer : undefined;
  useEffect(() => {
    if (!polled) return;
    setShown((current) => {
      if (!current || current.account.accountNumber !== polled.accountNumber) return current;
      const deadline = Date.now() + polled.expiresInSeconds * 1000;
      return Math.abs(deadline - current.deadline) < 5_000 ? current : { ...current, deadline };
    });
  }, [polled]);

  const remaining = useCountdown(shown?.deadline ?? null);
  const expired = shown !== null && remaining === 0;
  expiredNumber.current = expired ? (shown?.account.accountNumber ?? null) : null;
  const mismatch = record.status === "awaiting_transfer" ? record.amountMismatch : undefined;

  // Too little arrived: the customer has the rest to send, so stop the "waiting" state.
  const mismatchKey = mismatch ? `${mismatch.received}/${mismatch.expected}` : "";
  useEffect(() => {
    if (mismatchKey) setSent(false);
  }, [mismatchKey]);

  const total = money(view.totals.transfer);

  /** Ask for an account (the first, or a new one after expiry), with the error of the last try. */
  const issueProblem = issue.error ? errorText(issue.error, t, locale) : issue.isIdle ? postedProblem : null;
  const issueButton = (label: string, pending: string) => (
    <>
      {issueProblem && (
        <p role="alert" className={`mt-4 ${alertError}`}>
          {issueProblem}
        </p>
      )}
      <CheckoutForm
        intent="bank_transfer"
        onSubmit={(event) => {
          event.preventDefault();
          issue.mutate("issue");
        }}
      >
        <button type="submit" disabled={issue.isPending} className={`mt-4 ${buttonPrimary}`}>
          {issue.isPending ? (
            <>
              <Spinner /> {pending}
            </>
          ) : (
            label
          )}
        </button>
      </CheckoutForm>
    </>
  );

  if (!shown) {
    return (
      <div>
        <StepHeading>{w.title}</StepHeading>
        <p className="mt-1 text-sm text-slate-700">
          {withAmount(w.intro, "{total}", <strong className="font-semibold text-slate-900">{total}</strong>)}
        </p>
        {issueButton(w.getAccount, w.gettingAccount)}
      </div>
    );
  }

  const { account } = shown;
  // Transfers to the account add up: after too little, what is left to send is the rest.
  const toSend = mismatch ? mismatch.due : account.amount;
  const amount = money(toSend, account.currency);

  if (expired) {
    return (
      <div key={`expired-${account.accountNumber}`}>
        <StepHeading>{w.expiredTitle}</StepHeading>
        <p className="mt-1 text-sm text-slate-700">
          {fmt(w.expiredBody, { account: formatAccountNumber(account.accountNumber) })}
        </p>
        {issueButton(w.getNewAccount, w.gettingNewAccount)}
      </div>
    );
  }

  return (
    <div key={`account-${account.accountNumber}`}>
      <StepHeading>{fmt(w.heading, { amount })}</StepHeading>
      <p className="mt-1 text-sm text-slate-700">{w.sendExactly}</p>
      {mismatch && (
        <div role="alert" className={`mt-4 ${alertWarning}`}>
          <p className="font-semibold">{w.mismatchTitle}</p>
          <p className="mt-1">
            {fmt(w.mismatchBody, {
              received: money(mismatch.received),
              expected: money(mismatch.expected),
              due: money(mismatch.due),
            })}
          </p>
        </div>
      )}
      <dl className="mt-4 divide-y divide-slate-200 rounded-lg bg-slate-50 px-4 ring-1 ring-slate-200">
        <div className="py-3">
          <dt className="text-xs font-medium text-slate-600">{w.accountNumber}</dt>
          <dd className="flex flex-wrap items-center justify-between gap-2">
            {/* Screen readers hear it digit by digit (a number read as "nine billion…" cannot be typed). */}
            <span className="font-mono text-2xl font-semibold tracking-wide text-slate-900 tabular-nums">
              <span aria-hidden="true" data-testid="account-number">
                {formatAccountNumber(account.accountNumber)}
              </span>
              <span className="sr-only">{account.accountNumber.split("").join(" ")}</span>
            </span>
            <CopyButton value={account.accountNumber} what={w.copyAccountNumber} labels={t.copy} />
          </dd>
        </div>
        <div className="py-3">
          <dt className="text-xs font-medium text-slate-600">{w.bank}</dt>
          <dd className="text-slate-900">{account.bankName}</dd>
        </div>
        <div className="py-3">
          <dt className="text-xs font-medium text-slate-600">{w.accountName}</dt>
          <dd className="break-words text-slate-900">{account.accountName}</dd>
        </div>
        <div className="py-3">
          <dt className="text-xs font-medium text-slate-600">{w.amountExactly}</dt>
          <dd className="flex flex-wrap items-center justify-between gap-2">
            <span className="text-lg font-semibold text-slate-900 tabular-nums">{amount}</span>
            <CopyButton value={toSend} what={w.copyAmount} labels={t.copy} />
          </dd>
        </div>
      </dl>
      <p className="mt-3 text-sm text-slate-700" role="timer" aria-live="off">
        {w.expiresIn}{" "}
        <strong
          className="font-semibold text-slate-900 tabular-nums"
          aria-hidden="true"
          data-testid="countdown"
        >
          {formatClock(remaining ?? 0)}
        </strong>
        <span className="sr-only">{clockInWords(remaining ?? 0, t.clock, locale)}</span>.
      </p>
      {sent ? (
        <div className="mt-4 rounded-lg bg-slate-50 p-4 ring-1 ring-slate-200">
          <StepHeading level={3} className="flex items-center gap-2 text-base font-semibold text-slate-900">
            <Spinner /> {w.waitingTitle}
          </StepHeading>
          <p className="mt-1 text-sm text-slate-700">{w.waitingBody}</p>
          <div className="mt-3 h-1.5 overflow-hidden rounded-full bg-slate-200">
            <div
              role="progressbar"
              aria-label={w.waitingTitle}
              className="h-full w-1/3 rounded-full bg-[var(--brand,#0f766e)] motion-safe:animate-pulse"
            />
          </div>
        </div>
      ) : (
        // Posted without the page's code, it shows the page again as the payment now stands.
        <CheckoutForm
          intent="refresh"
          fields={{ channel: "bank_transfer" }}
          onSubmit={(event) => {
            event.preventDefault();
            setSent(true);
            refresh();
          }}
        >
          <button type="submit" className={`mt-4 ${buttonPrimary}`}>
            {w.sent}
          </button>
        </CheckoutForm>
      )}
      <SandboxActions
        title={t.sandbox.playBank}
        actions={[
          {
            label: t.sandbox.sendExact,
            intent: "sandbox_transfer",
            run: (key) => checkoutApi.sandboxTransfer(view.accessCode, undefined, key),
          },
          {
            label: fmt(t.sandbox.sendWrong, { amount: money(halfOf(toSend), account.currency) }),
            intent: "sandbox_transfer",
            fields: { amount: halfOf(toSend) },
            run: (key) => checkoutApi.sandboxTransfer(view.accessCode, halfOf(toSend), key),
          },
          {
            label: t.sandbox.fail,
            intent: "sandbox_fail",
            run: (key) => checkoutApi.simulate(view.accessCode, "failed", key),
          },
        ]}
      />
    </div>
  );
}
