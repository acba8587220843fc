"use client";

import { QueryClient, QueryClientProvider, useMutation } from "@tanstack/react-query";
import { type FormEvent, useId, useRef, useState } from "react";
import { Field } from "@/components/ui/field";
import { formatMoney, isZeroAmount } from "@/lib/i18n/format";
import { fmt, type Locale } from "@/lib/i18n/locales";
import type { CheckoutMessages, LinkFormMessages } from "@/lib/i18n/messages/en";
import { type LinkPricing, quoteFees } from "@/lib/links/fee-notice";
import { type Currency, isCurrency } from "@/lib/money/currencies";
import { payLinkForm } from "../actions";

/** One prompt of the link's form schema. */
type Prompt = {
  name: string;
  label: string;
  type: "text" | "email" | "phone" | "number" | "select";
  required?: boolean;
  options?: string[];
};

type Props = {
  slug: string;
  currency: string;
  fixedAmount: string | null;
  minAmount: string | null;
  maxAmount: string | null;
  fields: Prompt[];
  brandColor: string | null;
  pricing: LinkPricing;
  /** Whether receipts go out by email on this server (SMTP configured): only then does the page say so. */
  receiptsByEmail: boolean;
  /** The page's language, its form strings and the channels' names (the page chose them on the server). */
  locale: Locale;
  t: LinkFormMessages;
  channelNames: CheckoutMessages["channels"];
  /** The problem code of this form posted without the page's code (../actions.ts), when it came back with one. */
  posted: string | null;
};

type Failure = { status: "failed"; error: string; message: string };
type Session = { checkoutUrl: string };

const AMOUNT = /^(0|[1-9][0-9]*)(\.[0-9]{1,2})?$/;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

class ApiError extends Error {
  constructor(readonly failure: Failure) {
    super(failure.message);
  }
}

async function startPayment(slug: string, body: Record<string, unknown>, generic: string): Promise<Session> {
  const res = await fetch(`/v1/merchants/payment-links/${encodeURIComponent(slug)}/pay`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  const json = (await res.json().catch(() => null)) as {
    status?: string;
    data?: Session;
    error?: string;
    message?: string;
  } | null;
  if (!res.ok || json?.status !== "success" || !json.data) {
    throw new ApiError({
      status: "failed",
      error: json?.error ?? "network_error",
      message: json?.message ?? generic,
    });
  }
  return json.data;
}

/** Which form control a server message is about: "fields.size (Size) is required." -> "field:size". */
function controlFor(message: string): string | null {
  const field = /^fields\.([A-Za-z0-9_]+)/.exec(message);
  if (field?.[1]) return `field:${field[1]}`;
  if (/^amount\b/.test(message)) return "amount";
  if (/^email\b/.test(message)) return "email";
  if (/^customerName\b/.test(message)) return "customerName";
  return null;
}

/**
 * A server message in the customer's words: the API names fields by their keys ("fields.size (Size) is
 * required.", "amount must be at least 1000.00."); the form names them by their labels.
 */
function forCustomer(message: string, fields: Prompt[]): string {
  const key = /^fields\.([A-Za-z0-9_]+)/.exec(message);
  if (key) {
    const label = fields.find((f) => f.name === key[1])?.label ?? "This answer";
    const rest = message.slice(key[0].length);
    return label + (rest.startsWith(` (${label})`) ? rest.slice(label.length + 3) : rest);
  }
  const named = /^(amount|email|customerName)\b/.exec(message);
  if (named) {
    const label = { amount: "Amount", email: "Email address", customerName: "Full name" }[named[1] ?? ""];
    return label + message.slice(named[0].length);
  }
  return message;
}

/**
 * A decimal string as an integer count of 10^-digits units: ("5000.5", 2) -> 500050n. No floating point:
 * amounts are compared exactly, all at the same `digits`, which is at least every compared string's decimals.
 */
function toUnits(amount: string, digits: number): bigint {
  const [whole = "0", fraction = ""] = amount.split(".");
  return BigInt(whole + fraction.padEnd(digits, "0"));
}

/** The checkout address with the page's language (`?lang=`), unless it is the default. */
function withLang(checkoutUrl: string, locale: Locale): string {
  if (locale === "en") return checkoutUrl;
  const url = new URL(checkoutUrl, window.location.href);
  url.searchParams.set("lang", locale);
  return url.toString();
}

const decimals = (amount: string | null) => amount?.split(".")[1]?.length ?? 0;

export function LinkForm(props: Props) {
  const [client] = useState(() => new QueryClient({ defaultOptions: { mutations: { retry: false } } }));
  return (
    <QueryClientProvider client={client}>
      <Form {...props} />
    </QueryClientProvider>
  );
}

/** "Bank transfer, bank payment or USSD". */
function channelList(channels: string[], names: Record<string, string>, or: string, locale: Locale): string {
  const named = channels.map((c, i) => {
    const name = names[c] ?? c;
    // Lower case after the first, in the languages that have case; "USSD" stays as it is.
    return i === 0 || name === "USSD" || !(locale === "en" || locale === "fr") ? name : name.toLowerCase();
  });
  return named.length <= 1 ? (named[0] ?? "") : `${named.slice(0, -1).join(", ")} ${or} ${named.at(-1)}`;
}

/**
 * Before checkout, what the customer will pay by each way of paying: the amount plus that channel's fee, the
 * same numbers checkout shows. With no valid amount yet (a link where the customer types it), it says a fee
 * may be added and that the figures follow once the amount is entered.
 */
function FeeNotice({
  pricing,
  amount,
  currency,
  t,
  locale,
  channelNames,
}: {
  pricing: LinkPricing;
  amount: string;
  currency: string;
  t: LinkFormMessages;
  locale: Locale;
  channelNames: Record<string, string>;
}) {
  const id = useId();
  if (pricing.merchantBearsCost) {
    return (
      <p className="text-sm text-slate-700" data-testid="fee-notice">
        {t.fees.none}
      </p>
    );
  }
  const quotes = isCurrency(currency) ? quoteFees(pricing, amount, currency as Currency) : null;
  if (!quotes) {
    return (
      <p className="text-sm text-slate-700" data-testid="fee-notice">
        {t.fees.unknown}
      </p>
    );
  }
  return (
    <section
      aria-labelledby={`${id}-fees`}
      className="rounded-lg bg-slate-50 p-3 text-sm ring-1 ring-slate-200"
      data-testid="fee-notice"
    >
      <h2 id={`${id}-fees`} className="font-medium text-slate-900">
        {t.fees.title}
      </h2>
      <ul className="mt-2 space-y-1 text-slate-700">
        {quotes.map((q) => (
          <li key={q.channels.join()} className="flex flex-wrap justify-between gap-x-4 tabular-nums">
            <span>{channelList(q.channels, channelNames, t.or, locale)}</span>
            <span>
              <strong className="font-semibold text-slate-900">
                {formatMoney(q.total, currency, locale)}
              </strong>{" "}
              {isZeroAmount(q.fee)
                ? t.fees.noFee
                : fmt(t.fees.fee, { fee: formatMoney(q.fee, currency, locale) })}
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}

function Form({
  slug,
  currency,
  fixedAmount,
  minAmount,
  maxAmount,
  fields,
  brandColor,
  pricing,
  receiptsByEmail,
  locale,
  t,
  channelNames,
  posted,
}: Props) {
  const money = (amount: string) => formatMoney(amount, currency, locale);
  const e = t.errors;
  const [typedAmount, setTypedAmount] = useState("");
  const id = useId();
  const formRef = useRef<HTMLFormElement>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | null>(() =>
    posted === null
      ? null
      : posted === "validation_error"
        ? e.checkDetails
        : posted === "payment_link_unavailable"
          ? e.unavailableNow
          : e.generic,
  );
  const pay = useMutation({
    mutationFn: (body: Record<string, unknown>) => startPayment(slug, body, e.generic),
    // The checkout opens in this page's language (docs/checkout.md "Languages").
    onSuccess: (session) => window.location.assign(withLang(session.checkoutUrl, locale)),
    onError: (err) => {
      const message = err instanceof ApiError ? err.failure.message : e.network;
      const control = controlFor(message);
      // The API's words are English: in another language, a control's mistake is said in general terms.
      const said = locale === "en" ? null : e.generic;
      if (control) {
        setErrors({ [control]: said ?? forCustomer(message, fields) });
        focusControl(control);
      } else {
        setFormError(err instanceof ApiError ? (said ?? message) : message);
      }
    },
  });

  function focusControl(control: string) {
    requestAnimationFrame(() =>
      formRef.current?.querySelector<HTMLElement>(`[data-control="${control}"]`)?.focus(),
    );
  }

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (pay.isPending) return;
    const data = new FormData(event.currentTarget);
    const found: Record<string, string> = {};
    const value = (name: string) => String(data.get(name) ?? "").trim();
    const amount = value("amount");
    if (!fixedAmount) {
      if (!amount) found.amount = e.amountEmpty;
      else if (!AMOUNT.test(amount)) found.amount = e.amountFormat;
      else {
        // The link's bounds, checked here so the customer hears them in their words (the server checks too).
        const digits = Math.max(decimals(amount), decimals(minAmount), decimals(maxAmount));
        const units = toUnits(amount, digits);
        if (units <= 0n) found.amount = e.amountZero;
        else if (minAmount && units < toUnits(minAmount, digits))
          found.amount = fmt(e.amountMin, { amount: money(minAmount) });
        else if (maxAmount && units > toUnits(maxAmount, digits))
          found.amount = fmt(e.amountMax, { amount: money(maxAmount) });
      }
    }
    const email = value("email");
    if (!email) found.email = receiptsByEmail ? e.emailEmptyReceipt : e.emailEmpty;
    else if (!EMAIL.test(email)) found.email = e.emailInvalid;
    const answers: Record<string, string> = {};
    for (const f of fields) {
      const v = value(`field:${f.name}`);
      if (!v && f.required) found[`field:${f.name}`] = fmt(e.required, { label: f.label });
      else if (v && f.type === "email" && !EMAIL.test(v))
        found[`field:${f.name}`] = fmt(e.fieldEmail, { label: f.label });
      if (v) answers[f.name] = v;
    }
    setErrors(found);
    setFormError(null);
    const first = Object.keys(found)[0];
    if (first) return focusControl(first);
    const name = value("customerName");
    pay.mutate({
      ...(fixedAmount ? {} : { amount }),
      email,
      ...(name && { customerName: name }),
      fields: answers,
    });
  }

  const hint =
    !fixedAmount && (minAmount || maxAmount)
      ? [
          minAmount && fmt(t.atLeast, { amount: money(minAmount) }),
          maxAmount && fmt(t.atMost, { amount: money(maxAmount) }),
        ]
          .filter(Boolean)
          .join(", ")
      : null;

  return (
    // Posted by the browser itself before this code runs (or without it): the server action payLinkForm.
    <form
      ref={formRef}
      action={payLinkForm}
      onSubmit={onSubmit}
      noValidate
      className="mt-6 space-y-5"
      aria-describedby={formError ? `${id}-form-error` : undefined}
    >
      <input type="hidden" name="slug" value={slug} />
      <input type="hidden" name="lang" value={locale} />
      {formError && (
        <div
          id={`${id}-form-error`}
          role="alert"
          className="rounded-lg bg-red-50 p-3 text-sm text-red-800 ring-1 ring-red-200"
        >
          {formError}
        </div>
      )}
      {!fixedAmount && (
        <Field
          id={`${id}-amount`}
          label={fmt(t.amount, { currency })}
          error={errors.amount}
          hint={hint ? fmt(t.enterAmountHint, { range: hint }) : undefined}
        >
          {(aria) => (
            <input
              {...aria}
              data-control="amount"
              name="amount"
              inputMode="decimal"
              autoComplete="off"
              placeholder="0.00"
              required
              onChange={(event) => setTypedAmount(event.currentTarget.value.trim())}
              className={inputClass}
            />
          )}
        </Field>
      )}
      {fields.map((f) => (
        <Field
          key={f.name}
          id={`${id}-f-${f.name}`}
          label={f.label}
          optional={!f.required}
          optionalLabel={t.optional}
          error={errors[`field:${f.name}`]}
        >
          {(aria) =>
            f.type === "select" ? (
              <select
                {...aria}
                data-control={`field:${f.name}`}
                name={`field:${f.name}`}
                required={f.required}
                defaultValue=""
                className={inputClass}
              >
                <option value="" disabled={f.required}>
                  {t.choose}
                </option>
                {f.options?.map((o) => (
                  <option key={o} value={o}>
                    {o}
                  </option>
                ))}
              </select>
            ) : (
              <input
                {...aria}
                data-control={`field:${f.name}`}
                name={`field:${f.name}`}
                required={f.required}
                type={f.type === "email" ? "email" : f.type === "phone" ? "tel" : "text"}
                inputMode={f.type === "number" ? "decimal" : undefined}
                autoComplete={f.type === "email" ? "email" : f.type === "phone" ? "tel" : "off"}
                className={inputClass}
              />
            )
          }
        </Field>
      ))}
      <Field
        id={`${id}-email`}
        label={t.email}
        error={errors.email}
        hint={receiptsByEmail ? t.emailHint : undefined}
      >
        {(aria) => (
          <input
            {...aria}
            data-control="email"
            name="email"
            type="email"
            autoComplete="email"
            required
            className={inputClass}
          />
        )}
      </Field>
      <Field
        id={`${id}-name`}
        label={t.fullName}
        optional
        optionalLabel={t.optional}
        error={errors.customerName}
      >
        {(aria) => (
          <input
            {...aria}
            data-control="customerName"
            name="customerName"
            autoComplete="name"
            className={inputClass}
          />
        )}
      </Field>
      <FeeNotice
        pricing={pricing}
        amount={fixedAmount ?? typedAmount}
        currency={currency}
        t={t}
        locale={locale}
        channelNames={channelNames}
      />
      <button
        type="submit"
        disabled={pay.isPending || pay.isSuccess}
        aria-disabled={pay.isPending || pay.isSuccess}
        className="w-full rounded-lg px-4 py-3 text-base font-semibold text-white shadow-sm transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-slate-900 disabled:opacity-70"
        style={{ backgroundColor: brandColor ?? "#0f766e" }}
      >
        {pay.isPending || pay.isSuccess
          ? t.opening
          : fixedAmount && pricing.merchantBearsCost
            ? fmt(t.pay, { amount: money(fixedAmount) })
            : t.continue}
      </button>
    </form>
  );
}

const inputClass =
  "mt-1 block w-full rounded-lg border border-slate-300 bg-white px-3 py-2.5 text-base text-slate-900 shadow-sm focus:border-teal-700 focus:outline-none focus:ring-2 focus:ring-teal-700/30 aria-[invalid=true]:border-red-600";
