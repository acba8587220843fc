"use client";

import { useRouter } from "next/navigation";
import { useContext, useEffect, useRef, useState } from "react";
import { CopyButton } from "@/components/ui/copy-button";
import { FocusStepsContext, StepHeading } from "@/components/ui/step-heading";
import { buttonPrimary, buttonSecondary } from "@/components/ui/styles";
import { useHydrated } from "@/components/ui/use-hydrated";
import type { Channel } from "@/lib/checkout/types";
import { isZeroAmount } from "@/lib/i18n/format";
import { callbackHref, formatDateTime } from "@/lib/i18n/format-details";
import { fmt } from "@/lib/i18n/locales";
import { customerTotal } from "./amounts";
import { useCheckout } from "./context";

/**
 * How long the confirmation shows before the browser returns to the merchant, counted down on screen. Any
 * press or key inside the receipt stops the count (WCAG 2.2.1: the customer can keep the page as long as they
 * need), and "Stay on this page" stops it outright.
 */
export const RETURN_SECONDS = 5;

/**
 * "2025-06-01T09:30:12.000Z" → "1 Jun 2025, 09:30 UTC": what the server renders (it cannot know the payer's
 * time zone); once the page runs in the browser, `localTime` replaces it with the payer's own.
 */
function paidOn(iso: string): string {
  const d = new Date(iso);
  const month = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"][
    d.getUTCMonth()
  ];
  const hh = String(d.getUTCHours()).padStart(2, "0");
  const mm = String(d.getUTCMinutes()).padStart(2, "0");
  return `${d.getUTCDate()} ${month} ${d.getUTCFullYear()}, ${hh}:${mm} UTC`;
}

/** "1 Jun 2025, 10:30 WAT": the payer's local date and time, with their zone's name. */
function localTime(iso: string): string {
  return new Intl.DateTimeFormat(undefined, {
    day: "numeric",
    month: "short",
    year: "numeric",
    hour: "2-digit",
    minute: "2-digit",
    timeZoneName: "short",
  }).format(new Date(iso));
}

/** The payment's date: UTC from the server, the payer's local time once hydrated; in the page's language. */
function PaidAt({ iso }: { iso: string }) {
  const hydrated = useHydrated();
  const { locale, t } = useCheckout();
  const text =
    locale === "en"
      ? hydrated
        ? localTime(iso)
        : paidOn(iso)
      : formatDateTime(iso, locale, t.months, hydrated ? undefined : "UTC");
  return (
    <time dateTime={iso} data-testid="paid-at">
      {text}
    </time>
  );
}

const row = "flex flex-wrap justify-between gap-x-4 gap-y-1 py-2 print:py-1";

/**
 * The end of checkout. With a callback URL: a short confirmation, then the browser goes back to the merchant
 * with status, reference, amount and currency (docs/checkout.md). Only when the payment finished during this
 * visit: opening a finished checkout again (the back button) shows the result and a link, no redirect loop.
 * Without a callback URL this is the receipt.
 */
export function Outcome() {
  const { view, record, t, money, embed } = useCheckout();
  const o = t.outcome;
  const live = useContext(FocusStepsContext);
  const [returning] = useState(() => live.current);
  // Embedded, the merchant's page is still there under the modal: no redirect, a button that closes the modal.
  const href =
    view.callbackUrl && !embed
      ? callbackHref(view.callbackUrl, {
          status: record.status,
          reference: record.reference,
          amount: record.amount,
          currency: record.currency,
        })
      : null;

  // Paid during this visit: the server's view adds what the receipt names (card brand and last 4, bank).
  const router = useRouter();
  const paidHere = returning && record.status === "success" && !view.paidWith;
  useEffect(() => {
    if (paidHere) router.refresh();
  }, [paidHere, router]);

  const [secondsLeft, setSecondsLeft] = useState(RETURN_SECONDS);
  const [stayed, setStayed] = useState(false);
  const counting = href !== null && returning && !stayed;

  useEffect(() => {
    if (!counting || !href) return;
    if (secondsLeft <= 0) {
      window.location.assign(href);
      return;
    }
    const timer = setTimeout(() => setSecondsLeft((s) => s - 1), 1_000);
    return () => clearTimeout(timer);
  }, [counting, href, secondsLeft]);

  const returnLink = useRef<HTMLAnchorElement>(null);
  const receipt = useRef<HTMLDivElement>(null);
  // The customer is doing something here (selecting or copying the reference, printing, pressing a key): leave
  // them be. Return now and Stay on this page are the countdown's own controls (Return now still returns).
  useEffect(() => {
    const node = receipt.current;
    if (!counting || !node) return;
    const stay = (event: Event) => {
      if (event.target instanceof Element && event.target.closest("[data-countdown-control]")) return;
      setStayed(true);
    };
    node.addEventListener("pointerdown", stay);
    node.addEventListener("keydown", stay);
    return () => {
      node.removeEventListener("pointerdown", stay);
      node.removeEventListener("keydown", stay);
    };
  }, [counting]);

  const merchant = view.merchant.name;
  const channel = (record.channel ?? view.channels[0] ?? "card") as Channel;
  const { total: paid, fee } = customerTotal(view, record, channel);
  const channelName = (name: string) => t.channels[name as Channel] ?? name;

  return (
    <div className="text-center" key={record.status} ref={receipt}>
      {record.status === "success" ? (
        <>
          <div
            aria-hidden="true"
            className="mx-auto flex size-12 items-center justify-center rounded-full bg-emerald-100 text-2xl text-emerald-800"
          >
            ✓
          </div>
          <StepHeading className="mt-3 text-xl font-semibold text-slate-900">{o.successTitle}</StepHeading>
          <p className="mt-1 text-slate-700">
            {fmt(o.youPaid, { amount: money(paid, record.currency), merchant })}
          </p>
          {view.receiptsByEmail && view.email && (
            <p className="mt-1 text-sm break-words text-slate-700">
              {fmt(o.receiptOnItsWay, { email: view.email })}
            </p>
          )}
        </>
      ) : record.status === "abandoned" ? (
        <>
          <StepHeading className="text-xl font-semibold text-slate-900">{o.cancelledTitle}</StepHeading>
          <p className="mt-1 text-slate-700">{o.nothingCharged}</p>
        </>
      ) : (
        <>
          <StepHeading className="text-xl font-semibold text-slate-900">{o.failedTitle}</StepHeading>
          <p className="mt-1 text-slate-700">
            {o.failedBody}
            {view.callbackUrl ? ` ${fmt(o.failedReturn, { merchant })}` : ""}
          </p>
        </>
      )}

      <dl
        className="mx-auto mt-5 max-w-sm divide-y divide-slate-200 rounded-lg bg-slate-50 px-4 text-left text-sm ring-1 ring-slate-200 print:max-w-none print:bg-white print:ring-0"
        data-testid="receipt"
      >
        <div className="py-2">
          <dt className="text-slate-600">{o.reference}</dt>
          <dd className="mt-1 flex flex-wrap items-center justify-between gap-x-3 gap-y-2">
            {/* Never broken in the middle (it is read out and typed): on a phone the Copy button goes under it. */}
            <span className="font-mono whitespace-nowrap text-slate-900" data-testid="reference">
              {record.reference}
            </span>
            <CopyButton
              value={record.reference}
              what={o.copyReference}
              labels={t.copy}
              className="shrink-0 print:hidden"
            />
          </dd>
        </div>
        {record.status === "success" && (
          <>
            {!isZeroAmount(fee) && (
              <>
                <div className={row}>
                  <dt className="text-slate-600">{o.amount}</dt>
                  <dd className="text-slate-900 tabular-nums">{money(view.amount, record.currency)}</dd>
                </div>
                <div className={row}>
                  <dt className="text-slate-600">{t.feeLabels[channel]}</dt>
                  <dd className="text-slate-900 tabular-nums">{money(fee, record.currency)}</dd>
                </div>
              </>
            )}
            <div className={row}>
              <dt className="text-slate-600">{o.totalPaid}</dt>
              <dd className="font-semibold text-slate-900 tabular-nums">{money(paid, record.currency)}</dd>
            </div>
            {record.channel && (
              <div className={row}>
                <dt className="text-slate-600">{o.paidWith}</dt>
                <dd className="text-right text-slate-900" data-testid="paid-with">
                  {view.paidWith
                    ? record.channel === "card"
                      ? view.paidWith
                      : `${channelName(record.channel)}, ${view.paidWith}`
                    : channelName(record.channel)}
                </dd>
              </div>
            )}
            {record.paidAt && (
              <div className={row}>
                <dt className="text-slate-600">{o.date}</dt>
                <dd className="text-right text-slate-900">
                  <PaidAt iso={record.paidAt} />
                </dd>
              </div>
            )}
          </>
        )}
      </dl>
      {record.status === "success" && (
        <div className="mt-4 print:hidden">
          <button type="button" className={buttonSecondary} onClick={() => window.print()}>
            {o.print}
          </button>
        </div>
      )}

      {embed ? (
        <div className="mt-6 print:hidden">
          <button type="button" className={buttonPrimary} onClick={embed.close}>
            {fmt(o.returnTo, { merchant })}
          </button>
        </div>
      ) : href ? (
        <div className="mt-6 print:hidden">
          {returning && (
            <p className="text-sm text-slate-700" role="status">
              {counting ? (
                <>
                  {fmt(o.returning, { merchant })}
                  <span aria-hidden="true" data-testid="return-countdown">
                    {" "}
                    {fmt(o.inSeconds, { seconds: secondsLeft })}
                  </span>
                  …
                </>
              ) : (
                fmt(o.takeYourTime, { merchant })
              )}
            </p>
          )}
          <div className="mt-3 flex flex-wrap justify-center gap-3">
            <a ref={returnLink} href={href} className={buttonPrimary} data-countdown-control>
              {counting ? o.returnNow : fmt(o.returnTo, { merchant })}
            </a>
            {counting && (
              <button
                type="button"
                className={buttonSecondary}
                data-countdown-control
                onClick={() => {
                  setStayed(true);
                  returnLink.current?.focus();
                }}
              >
                {o.stay}
              </button>
            )}
          </div>
        </div>
      ) : (
        record.status === "success" && <p className="mt-6 text-sm text-slate-600">{o.keepReference}</p>
      )}
    </div>
  );
}
