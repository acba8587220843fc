"use client";

import { useMutation } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useEffect, useRef, useState } from "react";
import { Field } from "@/components/ui/field";
import { alertError, buttonSecondary, inputClass } from "@/components/ui/styles";
import { formatMoney } from "@/lib/i18n/format";
import { parseAmount } from "@/lib/money/amount";
import { isCurrency } from "@/lib/money/currencies";
import { CreateRefundBody } from "@/lib/refunds/schemas";
import { checkBody, consoleCall, fieldErrors, newIdempotencyKey } from "./api";
import { buttonDanger } from "./styles";

type Refund = { id: string; amount: string; currency: string; status: string };

/**
 * Refund all or part of a paid payment: the amount (everything refundable when left empty) and a reason,
 * then a confirmation that names the amount. The refund is pending until the bank settles it; the page then
 * shows it in the list below.
 */
export function RefundForm({
  reference,
  refundable,
  currency,
}: {
  reference: string;
  refundable: string;
  currency: string;
}) {
  const router = useRouter();
  const [amount, setAmount] = useState("");
  const [reason, setReason] = useState("");
  const [confirming, setConfirming] = useState(false);
  const confirmRef = useRef<HTMLButtonElement>(null);
  // One key per confirmation: a second press, or a retry after a lost answer, gets the same refund back.
  const keyRef = useRef<string | null>(null);
  const refund = useMutation({
    mutationFn: () => {
      const body = {
        reference,
        ...(amount.trim() && { amount: amount.trim().replaceAll(",", "") }),
        ...(reason.trim() && { reason: reason.trim() }),
      };
      // The route's schema and lib/money check it before it is sent (the amount in the currency's decimals).
      const parsed = body.amount && isCurrency(currency) ? parseAmount(body.amount, currency) : null;
      checkBody(
        CreateRefundBody,
        body,
        parsed && !parsed.ok
          ? [{ field: "amount", rule: parsed.rule, message: `amount ${parsed.reason}` }]
          : [],
      );
      keyRef.current ??= newIdempotencyKey();
      return consoleCall<Refund>("POST", "refunds", body, { "idempotency-key": keyRef.current });
    },
    onSuccess: () => {
      keyRef.current = null;
      setConfirming(false);
      setAmount("");
      setReason("");
      router.refresh();
    },
    onError: () => setConfirming(false),
  });
  useEffect(() => {
    if (confirming) confirmRef.current?.focus();
  }, [confirming]);

  const shown = amount.trim() ? amount.trim() : refundable;
  const { byField, rest } = fieldErrors(refund.error, ["amount", "reason"]);

  return (
    <form
      className="space-y-3"
      onSubmit={(e) => {
        e.preventDefault();
        keyRef.current = null;
        setConfirming(true);
      }}
    >
      {refund.data && (
        <p
          role="status"
          className="rounded-lg bg-emerald-50 p-3 text-sm text-emerald-900 ring-1 ring-emerald-200"
        >
          Refund of {formatMoney(refund.data.amount, refund.data.currency)} asked for: it is{" "}
          {refund.data.status} until the bank settles it.
        </p>
      )}
      {rest && (
        <p role="alert" className={alertError}>
          {rest}
        </p>
      )}
      <div className="grid gap-3 sm:grid-cols-2">
        <Field
          id="refund-amount"
          label={`Amount (${currency})`}
          optional
          hint={`Up to ${formatMoney(refundable, currency)}; leave empty to refund all of it.`}
          error={byField.amount}
        >
          {(aria) => (
            <input
              {...aria}
              className={inputClass}
              inputMode="decimal"
              autoComplete="off"
              value={amount}
              onChange={(e) => setAmount(e.target.value)}
            />
          )}
        </Field>
        <Field id="refund-reason" label="Reason" optional hint="Kept with the refund." error={byField.reason}>
          {(aria) => (
            <input
              {...aria}
              className={inputClass}
              maxLength={200}
              value={reason}
              onChange={(e) => setReason(e.target.value)}
            />
          )}
        </Field>
      </div>
      {confirming ? (
        <div className="rounded-lg bg-red-50 p-3 ring-1 ring-red-200">
          <p className="text-sm text-red-900">
            Refund {formatMoney(shown, currency)} to the customer? This cannot be undone.
          </p>
          <div className="mt-3 flex flex-wrap gap-2">
            <button
              ref={confirmRef}
              type="button"
              className={buttonDanger}
              disabled={refund.isPending}
              onClick={() => refund.mutate()}
            >
              {refund.isPending ? "Refunding…" : `Yes, refund ${formatMoney(shown, currency)}`}
            </button>
            <button type="button" className={buttonSecondary} onClick={() => setConfirming(false)}>
              Cancel
            </button>
          </div>
        </div>
      ) : (
        <button type="submit" className={buttonSecondary}>
          Refund
        </button>
      )}
    </form>
  );
}
