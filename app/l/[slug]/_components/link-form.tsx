"use client";

import { QueryClient, QueryClientProvider, useMutation } from "@tanstack/react-query";
import { type FormEvent, useId, useRef, useState } from "react";
import { Field } from "@/components/ui/field";
import { useHydrated } from "@/components/ui/use-hydrated";
import { CHANNEL_NAMES, formatMoney, isZeroAmount } from "@/lib/checkout/format";
import { type LinkPricing, quoteFees } from "@/lib/links/fee-notice";
import { type Currency, isCurrency } from "@/lib/money/currencies";

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

async function startPayment(slug: string, body: Record<string, unknown>): Promise<Session> {
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
      message: json?.message ?? "Something went wrong. Try again.",
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
function channelList(channels: string[]): string {
  const names = channels.map((c, i) => {
    const name = CHANNEL_NAMES[c] ?? c;
    return i === 0 || name === "USSD" ? name : name.toLowerCase();
  });
  return names.length <= 1 ? (names[0] ?? "") : `${names.slice(0, -1).join(", ")} or ${names.at(-1)}`;
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
}: {
  pricing: LinkPricing;
  amount: string;
  currency: string;
}) {
  const id = useId();
  if (pricing.merchantBearsCost) {
    return (
      <p className="text-sm text-slate-700" data-testid="fee-notice">
        No fee is added: you pay the amount shown, whichever way you pay.
      </p>
    );
  }
  const quotes = isCurrency(currency) ? quoteFees(pricing, amount, currency as Currency) : null;
  if (!quotes) {
    return (
      <p className="text-sm text-slate-700" data-testid="fee-notice">
        A fee may be added at checkout, depending on how you pay. Enter the amount to see it.
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
        A fee may be added, depending on how you pay
      </h2>
      <ul className="mt-2 space-y-1 text-slate-700">
        {quotes.map((q) => (
          <li key={q.channels.join()} className="flex flex-wrap justify-between gap-x-4 tabular-nums">
            <span>{channelList(q.channels)}</span>
            <span>
              <strong className="font-semibold text-slate-900">{formatMoney(q.total, currency)}</strong>
              {isZeroAmount(q.fee) ? " (no fee)" : ` (${formatMoney(q.fee, currency)} fee)`}
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
}: Props) {
  const [typedAmount, setTypedAmount] = useState("");
  const id = useId();
  const formRef = useRef<HTMLFormElement>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const hydrated = useHydrated();
  const pay = useMutation({
    mutationFn: (body: Record<string, unknown>) => startPayment(slug, body),
    onSuccess: (session) => window.location.assign(session.checkoutUrl),
    onError: (err) => {
      const message =
        err instanceof ApiError
          ? err.failure.message
          : "Could not reach the server. Check your connection and try again.";
      const control = controlFor(message);
      if (control) {
        setErrors({ [control]: forCustomer(message, fields) });
        focusControl(control);
      } else {
        setFormError(message);
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
      if (!amount) found.amount = "Enter the amount to pay.";
      else if (!AMOUNT.test(amount)) found.amount = "Enter an amount like 5000 or 5000.50.";
      else {
        // The link's bounds, checked here so the customer hears them in their words (the server checks too).
        const digits = Math.max(decimals(amount), decimals(minAmount), decimals(maxAmount));
        const units = toUnits(amount, digits);
        if (units <= 0n) found.amount = "Enter an amount greater than zero.";
        else if (minAmount && units < toUnits(minAmount, digits))
          found.amount = `Enter at least ${formatMoney(minAmount, currency)}.`;
        else if (maxAmount && units > toUnits(maxAmount, digits))
          found.amount = `Enter at most ${formatMoney(maxAmount, currency)}.`;
      }
    }
    const email = value("email");
    if (!email)
      found.email = receiptsByEmail
        ? "Enter your email address for the receipt."
        : "Enter your email address.";
    else if (!EMAIL.test(email)) found.email = "Enter a valid email address.";
    const answers: Record<string, string> = {};
    for (const f of fields) {
      const v = value(`field:${f.name}`);
      if (!v && f.required) found[`field:${f.name}`] = `${f.label} is required.`;
      else if (v && f.type === "email" && !EMAIL.test(v))
        found[`field:${f.name}`] = `${f.label} must be a valid email address.`;
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
          minAmount && `at least ${formatMoney(minAmount, currency)}`,
          maxAmount && `at most ${formatMoney(maxAmount, currency)}`,
        ]
          .filter(Boolean)
          .join(", ")
      : null;

  return (
    <form
      ref={formRef}
      onSubmit={onSubmit}
      noValidate
      className="mt-6 space-y-5"
      aria-describedby={formError ? `${id}-form-error` : undefined}
    >
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
          label={`Amount (${currency})`}
          error={errors.amount}
          hint={hint ? `Enter ${hint}.` : undefined}
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
                  Choose…
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
        label="Email address"
        error={errors.email}
        hint={receiptsByEmail ? "We email your receipt here." : undefined}
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
      <Field id={`${id}-name`} label="Full name" optional error={errors.customerName}>
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
      <FeeNotice pricing={pricing} amount={fixedAmount ?? typedAmount} currency={currency} />
      <button
        type="submit"
        disabled={!hydrated || pay.isPending || pay.isSuccess}
        aria-disabled={!hydrated || pay.isPending || pay.isSuccess}
        className="w-full rounded-lg px-4 py-3 text-base font-semibold text-white shadow-sm transition focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-slate-900 disabled:opacity-70"
        style={{ backgroundColor: brandColor ?? "#0f766e" }}
      >
        {pay.isPending || pay.isSuccess
          ? "Opening checkout…"
          : fixedAmount && pricing.merchantBearsCost
            ? `Pay ${formatMoney(fixedAmount, currency)}`
            : "Continue to payment"}
      </button>
    </form>
  );
}

const inputClass =
  "mt-1 block w-full rounded-lg border border-slate-300 bg-white px-3 py-2.5 text-base text-slate-900 shadow-sm focus:border-teal-700 focus:outline-none focus:ring-2 focus:ring-teal-700/30 aria-[invalid=true]:border-red-600";
