"use client";

import { QueryClient, QueryClientProvider, useMutation } from "@tanstack/react-query";
import { type FormEvent, useId, useRef, useState } from "react";
import { Field } from "@/components/ui/field";
import type { FieldIssue } from "@/lib/core/errors";
import { validationFailure } from "@/lib/core/validation";
import { formatMoney, isZeroAmount } from "@/lib/i18n/format";
import { fmt, type Locale } from "@/lib/i18n/locales";
import type { CheckoutMessages, LinkFormMessages, Messages } from "@/lib/i18n/messages/en";
import { answerIssues, linkAmount } from "@/lib/links/answers";
import { type LinkPricing, quoteFees } from "@/lib/links/fee-notice";
import { PayLinkBody } from "@/lib/links/schemas";
import { parseAmount } from "@/lib/money/amount";
import { type Currency, isCurrency } from "@/lib/money/currencies";
import { type LinkStart, payLinkForm, startLinkPayment } from "../actions";

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
  /** Why a link cannot take payments, in the page's language (deactivated, expired, used up). */
  reasons: Messages["link"]["unavailable"];
  channelNames: CheckoutMessages["channels"];
  /** The problem code of this form posted without the page's code (../actions.ts), when it came back with one. */
  posted: string | null;
  /** With a refused answer: the field and rule it came back with (the page words them). */
  postedIssue: { field: string; rule: string } | null;
};

/** A start the server refused: its code and failing fields (by path and rule, never worded for the page). */
class StartRefused extends Error {
  constructor(readonly refusal: Extract<LinkStart, { ok: false }>) {
    super(refusal.error);
  }
}

/** A link's amount bound in minor units (null: none, or not an amount). */
function minorOf(amount: string | null, currency: string): bigint | null {
  if (!amount || !isCurrency(currency)) return null;
  const parsed = parseAmount(amount, currency);
  return parsed.ok ? parsed.minor : null;
}

/** The form control a failing field belongs to: "fields.size" -> "field:size". */
function controlOf(field: string): string | null {
  if (field.startsWith("fields.")) return `field:${field.slice("fields.".length)}`;
  return field === "amount" || field === "email" || field === "customerName" ? field : null;
}

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
  reasons,
  posted,
  postedIssue,
}: Props) {
  const money = (amount: string) => formatMoney(amount, currency, locale);
  const e = t.errors;
  const [typedAmount, setTypedAmount] = useState("");
  const id = useId();
  const formRef = useRef<HTMLFormElement>(null);

  /** A failing field in the customer's words, by its rule (the same rules the server refuses with). */
  function wordIssue(issue: Pick<FieldIssue, "field" | "rule">): string {
    if (issue.field === "amount") {
      switch (issue.rule) {
        case "required":
          return e.amountEmpty;
        case "not_positive":
          return e.amountZero;
        case "min_amount":
          return minAmount ? fmt(e.amountMin, { amount: money(minAmount) }) : e.amountFormat;
        case "max_amount":
          return maxAmount ? fmt(e.amountMax, { amount: money(maxAmount) }) : e.amountFormat;
        default:
          return e.amountFormat;
      }
    }
    if (issue.field === "email") {
      if (issue.rule === "required") return receiptsByEmail ? e.emailEmptyReceipt : e.emailEmpty;
      return e.emailInvalid;
    }
    const prompt = fields.find((f) => `fields.${f.name}` === issue.field);
    if (prompt) {
      const label = { label: prompt.label };
      switch (issue.rule) {
        case "required":
          return fmt(e.required, label);
        case "invalid_email":
          return fmt(e.fieldEmail, label);
        case "invalid_phone":
          return fmt(e.fieldPhone, label);
        case "invalid_number":
          return fmt(e.fieldNumber, label);
        case "invalid_option":
          return fmt(e.fieldChoice, label);
      }
    }
    return e.checkDetails;
  }

  /** Failing fields by control (the first of each), and what no control shows. */
  function byControl(issues: readonly Pick<FieldIssue, "field" | "rule">[]) {
    const found: Record<string, string> = {};
    let rest: string | null = null;
    for (const issue of issues) {
      const control = controlOf(issue.field);
      const known =
        control && (!control.startsWith("field:") || fields.some((f) => `field:${f.name}` === control));
      if (control && known) found[control] ??= wordIssue(issue);
      else rest ??= e.checkDetails;
    }
    return { found, rest };
  }

  const [errors, setErrors] = useState<Record<string, string>>(() =>
    postedIssue ? byControl([postedIssue]).found : {},
  );
  const [formError, setFormError] = useState<string | null>(() =>
    posted === null || (postedIssue && controlOf(postedIssue.field))
      ? null
      : posted === "validation_error"
        ? e.checkDetails
        : posted === "payment_link_unavailable"
          ? e.unavailableNow
          : e.generic,
  );
  const pay = useMutation({
    mutationFn: async (body: Record<string, unknown>) => {
      const started = await startLinkPayment(slug, body, locale);
      if (!started.ok) throw new StartRefused(started);
      return started;
    },
    // The checkout opens in this page's language (docs/checkout.md "Languages").
    onSuccess: (started) => window.location.assign(started.checkoutUrl),
    onError: (err) => {
      if (!(err instanceof StartRefused)) return setFormError(e.network);
      const { found, rest } = byControl(err.refusal.fields);
      const first = Object.keys(found)[0];
      setErrors(found);
      if (first) focusControl(first);
      else {
        const { error, unavailable } = err.refusal;
        setFormError(
          rest ??
            (error === "payment_link_unavailable"
              ? unavailable
                ? reasons[unavailable]
                : e.unavailableNow
              : e.generic),
        );
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
    const value = (name: string) => String(data.get(name) ?? "").trim();
    const amount = value("amount");
    const email = value("email");
    const name = value("customerName");
    const answers: Record<string, string> = {};
    for (const f of fields) {
      const v = value(`field:${f.name}`);
      if (v) answers[f.name] = v;
    }
    const body = {
      ...(fixedAmount ? {} : { amount }),
      email,
      ...(name && { customerName: name }),
      fields: answers,
    };
    // The rules the server refuses with, checked here first: the request's schema, the link's amount bounds
    // (lib/money) and its prompts (lib/links/answers.ts).
    const issues: Pick<FieldIssue, "field" | "rule">[] = [];
    if (!fixedAmount && isCurrency(currency)) {
      const checked = linkAmount(
        amount,
        { fixedMinor: null, minMinor: minorOf(minAmount, currency), maxMinor: minorOf(maxAmount, currency) },
        currency,
      );
      if (!checked.ok) issues.push(checked.issue);
    }
    if (!email) issues.push({ field: "email", rule: "required" });
    const parsed = PayLinkBody.safeParse(body);
    if (!parsed.success) issues.push(...validationFailure(parsed.error.issues, "body").fields);
    issues.push(...answerIssues(fields, answers).issues);
    const { found, rest } = byControl(issues);
    setErrors(found);
    setFormError(Object.keys(found).length === 0 ? rest : null);
    const first = Object.keys(found)[0];
    if (first) return focusControl(first);
    if (rest) return;
    pay.mutate(body);
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
