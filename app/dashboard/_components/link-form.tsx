"use client";

import { useMutation } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useId, useRef, useState } from "react";
import { Field } from "@/components/ui/field";
import { alertError, buttonPrimary, buttonSecondary, inputClass } from "@/components/ui/styles";
import type { FieldIssue } from "@/lib/core/errors";
import { CreateLinkBody } from "@/lib/links/schemas";
import { parseAmount } from "@/lib/money/amount";
import { isCurrency } from "@/lib/money/currencies";
import { checkBody, consoleCall, fieldErrors } from "./api";
import { detailsBody, type LinkDetails, LinkLimitFields, LinkTitleFields } from "./link-fields";
import { selectClass } from "./styles";

const ALL_CHANNELS = ["card", "bank_transfer", "bank_payment", "ussd"] as const;
const FIELD_TYPES = ["text", "email", "phone", "number", "select"] as const;
const FIELDS = [
  "title",
  "description",
  "amount",
  "minAmount",
  "maxAmount",
  "currency",
  "channels",
  "redirectUrl",
  "feeBearer",
  "metadata",
  "expiresAt",
  "usageLimit",
] as const;

type Prompt = {
  uid: number;
  label: string;
  type: (typeof FIELD_TYPES)[number];
  required: boolean;
  options: string;
};

/** "Table number" → "table_number": a prompt's key in the payment's metadata. */
function nameOf(label: string, index: number): string {
  const base = label
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "_")
    .replace(/^[^a-z]+|_+$/g, "")
    .slice(0, 36);
  return base || `field_${index + 1}`;
}

/** The amounts given, each in the chosen currency's decimals (lib/money, as the API reads them). */
function amountIssues(body: Record<string, unknown>, currency: string): FieldIssue[] {
  if (!isCurrency(currency)) return [];
  const issues: FieldIssue[] = [];
  for (const field of ["amount", "minAmount", "maxAmount"] as const) {
    const value = body[field];
    if (typeof value !== "string") continue;
    const parsed = parseAmount(value, currency);
    if (!parsed.ok) issues.push({ field, rule: parsed.rule, message: `${field} ${parsed.reason}` });
  }
  return issues;
}

/**
 * Create a payment link with every field of a payment link (docs/api.md). The API's own schema
 * (CreateLinkBody) and lib/money check it here before it is sent, and the route names any field it refuses.
 */
export function LinkForm({ currencies, channels: enabled }: { currencies: string[]; channels: string[] }) {
  const id = useId();
  const router = useRouter();
  const [details, setDetails] = useState<LinkDetails>({
    title: "",
    description: "",
    redirectUrl: "",
    expiresAt: "",
    usageLimit: "",
  });
  const [fixed, setFixed] = useState(true);
  const [amount, setAmount] = useState("");
  const [minAmount, setMinAmount] = useState("");
  const [maxAmount, setMaxAmount] = useState("");
  const [currency, setCurrency] = useState(currencies[0] ?? "NGN");
  const [channels, setChannels] = useState<string[]>(enabled.length ? enabled : [...ALL_CHANNELS]);
  const [feeBearer, setFeeBearer] = useState<"customer" | "merchant">("customer");
  const [prompts, setPrompts] = useState<Prompt[]>([]);
  const nextUid = useRef(0);

  const create = useMutation({
    mutationFn: async () => {
      const { title, description, redirectUrl, expiresAt, usageLimit } = detailsBody(details);
      const body: Record<string, unknown> = { title, currency, channels, feeBearer };
      if (description) body.description = description;
      if (fixed) body.amount = amount;
      else {
        if (minAmount) body.minAmount = minAmount;
        if (maxAmount) body.maxAmount = maxAmount;
      }
      if (redirectUrl) body.redirectUrl = redirectUrl;
      if (expiresAt) body.expiresAt = expiresAt;
      if (usageLimit) body.usageLimit = usageLimit;
      if (prompts.length) {
        body.metadata = {
          fields: prompts.map((p, i) => ({
            name: nameOf(p.label, i),
            label: p.label,
            type: p.type,
            required: p.required,
            ...(p.type === "select" && {
              options: p.options
                .split(",")
                .map((o) => o.trim())
                .filter(Boolean),
            }),
          })),
        };
      }
      return consoleCall<{ slug: string }>(
        "POST",
        "payment-links",
        checkBody(CreateLinkBody, body, amountIssues(body, currency)),
      );
    },
    onSuccess: (link) => router.push(`/dashboard/links/${link.slug}`),
  });
  const { byField, rest } = fieldErrors(create.error, FIELDS);
  const detailFields = {
    id,
    value: details,
    onChange: (change: Partial<LinkDetails>) => setDetails((d) => ({ ...d, ...change })),
    errors: byField,
  };
  const setPrompt = (i: number, change: Partial<Prompt>) =>
    setPrompts((list) => list.map((p, j) => (j === i ? { ...p, ...change } : p)));

  return (
    <form
      className="space-y-5"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        create.mutate();
      }}
    >
      <LinkTitleFields {...detailFields} />
      <fieldset className="space-y-2">
        <legend className="text-sm font-medium text-slate-800">Amount</legend>
        <label className="flex items-center gap-2 text-sm">
          <input type="radio" name="amountKind" checked={fixed} onChange={() => setFixed(true)} /> A fixed
          amount
        </label>
        <label className="flex items-center gap-2 text-sm">
          <input type="radio" name="amountKind" checked={!fixed} onChange={() => setFixed(false)} /> The
          customer enters the amount
        </label>
      </fieldset>
      <div className="grid gap-4 sm:grid-cols-3">
        <Field id={`${id}-currency`} label="Currency" error={byField.currency}>
          {(aria) => (
            <select
              {...aria}
              value={currency}
              onChange={(e) => setCurrency(e.target.value)}
              className={selectClass}
            >
              {currencies.map((c) => (
                <option key={c}>{c}</option>
              ))}
            </select>
          )}
        </Field>
        {fixed ? (
          <Field
            id={`${id}-amount`}
            label="Amount"
            error={byField.amount}
            hint="For example 5000 or 5000.50."
          >
            {(aria) => (
              <input
                {...aria}
                inputMode="decimal"
                value={amount}
                onChange={(e) => setAmount(e.target.value)}
                className={inputClass}
              />
            )}
          </Field>
        ) : (
          <>
            <Field id={`${id}-min`} label="Minimum" optional error={byField.minAmount}>
              {(aria) => (
                <input
                  {...aria}
                  inputMode="decimal"
                  value={minAmount}
                  onChange={(e) => setMinAmount(e.target.value)}
                  className={inputClass}
                />
              )}
            </Field>
            <Field id={`${id}-max`} label="Maximum" optional error={byField.maxAmount}>
              {(aria) => (
                <input
                  {...aria}
                  inputMode="decimal"
                  value={maxAmount}
                  onChange={(e) => setMaxAmount(e.target.value)}
                  className={inputClass}
                />
              )}
            </Field>
          </>
        )}
      </div>
      <fieldset>
        <legend className="text-sm font-medium text-slate-800">Channels offered</legend>
        <div className="mt-1 flex flex-wrap gap-4">
          {ALL_CHANNELS.map((c) => (
            <label key={c} className="flex items-center gap-2 text-sm">
              <input
                type="checkbox"
                checked={channels.includes(c)}
                onChange={(e) =>
                  setChannels((list) =>
                    e.target.checked
                      ? ALL_CHANNELS.filter((x) => x === c || list.includes(x))
                      : list.filter((x) => x !== c),
                  )
                }
              />
              {c.replaceAll("_", " ")}
            </label>
          ))}
        </div>
        {byField.channels && <p className="mt-1 text-sm font-medium text-red-700">{byField.channels}</p>}
      </fieldset>
      <fieldset>
        <legend className="text-sm font-medium text-slate-800">Who pays the fees</legend>
        <div className="mt-1 flex flex-wrap gap-4">
          <label className="flex items-center gap-2 text-sm">
            <input
              type="radio"
              name="feeBearer"
              checked={feeBearer === "customer"}
              onChange={() => setFeeBearer("customer")}
            />
            The customer (added to the total)
          </label>
          <label className="flex items-center gap-2 text-sm">
            <input
              type="radio"
              name="feeBearer"
              checked={feeBearer === "merchant"}
              onChange={() => setFeeBearer("merchant")}
            />
            You (taken from what you receive)
          </label>
        </div>
      </fieldset>
      <LinkLimitFields {...detailFields} />
      <fieldset className="space-y-3">
        <legend className="text-sm font-medium text-slate-800">Questions for the customer</legend>
        {prompts.length === 0 && (
          <p className="text-sm text-slate-600">None: only the amount and email are asked.</p>
        )}
        {prompts.map((p, i) => (
          <div
            key={p.uid}
            className="grid gap-3 rounded-lg p-3 ring-1 ring-slate-200 sm:grid-cols-[2fr_1fr_auto_auto]"
          >
            <Field id={`${id}-p${i}-label`} label={`Question ${i + 1}`}>
              {(aria) => (
                <input
                  {...aria}
                  value={p.label}
                  onChange={(e) => setPrompt(i, { label: e.target.value })}
                  className={inputClass}
                />
              )}
            </Field>
            <Field id={`${id}-p${i}-type`} label="Answer type">
              {(aria) => (
                <select
                  {...aria}
                  value={p.type}
                  onChange={(e) => setPrompt(i, { type: e.target.value as Prompt["type"] })}
                  className={selectClass}
                >
                  {FIELD_TYPES.map((t) => (
                    <option key={t} value={t}>
                      {t}
                    </option>
                  ))}
                </select>
              )}
            </Field>
            <label className="flex items-center gap-2 self-end pb-3 text-sm">
              <input
                type="checkbox"
                checked={p.required}
                onChange={(e) => setPrompt(i, { required: e.target.checked })}
              />
              Required
            </label>
            <button
              type="button"
              className={`${buttonSecondary} self-end`}
              onClick={() => setPrompts((list) => list.filter((_, j) => j !== i))}
              aria-label={`Remove question ${i + 1}`}
            >
              Remove
            </button>
            {p.type === "select" && (
              <Field
                id={`${id}-p${i}-options`}
                label="Choices, separated by commas"
                className="sm:col-span-4"
              >
                {(aria) => (
                  <input
                    {...aria}
                    value={p.options}
                    onChange={(e) => setPrompt(i, { options: e.target.value })}
                    className={inputClass}
                  />
                )}
              </Field>
            )}
          </div>
        ))}
        <button
          type="button"
          className={buttonSecondary}
          disabled={prompts.length >= 20}
          onClick={() =>
            setPrompts((list) => [
              ...list,
              { uid: nextUid.current++, label: "", type: "text", required: true, options: "" },
            ])
          }
        >
          Add a question
        </button>
        {byField.metadata && <p className="text-sm font-medium text-red-700">{byField.metadata}</p>}
      </fieldset>
      {rest && (
        <p role="alert" className={alertError}>
          {rest}
        </p>
      )}
      <button type="submit" className={buttonPrimary} disabled={create.isPending || create.isSuccess}>
        {create.isPending || create.isSuccess ? "Creating…" : "Create payment link"}
      </button>
    </form>
  );
}
