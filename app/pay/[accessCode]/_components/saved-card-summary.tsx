"use client";

import { StepHeading } from "@/components/ui/step-heading";
import { BRAND_LABEL, type Brand } from "@/lib/checkout/card";
import { fmt } from "@/lib/i18n/locales";
import { useCheckout } from "./context";

/**
 * A merchant's charge of a customer's saved card, finished on this page: the card it charges (brand and last
 * 4) and why the customer is here. There is nothing to type but the bank's answer (the OTP form or the bank's
 * page that follows this); without a step waiting, it says so.
 */
export function SavedCardSummary({ waiting }: { waiting: boolean }) {
  const { view, t } = useCheckout();
  const s = t.savedCards;
  const saved = view.savedCard;
  if (!saved) return null;
  const brand = BRAND_LABEL[saved.brand as Brand] || saved.brand;
  return (
    <div className="mb-4 rounded-lg bg-slate-50 p-4 ring-1 ring-slate-200" data-testid="saved-card">
      {waiting ? (
        <p className="text-sm font-semibold text-slate-900">{s.savedTitle}</p>
      ) : (
        <StepHeading>{s.savedTitle}</StepHeading>
      )}
      <p className="mt-1 text-base text-slate-900 tabular-nums">
        {fmt(s.savedCard, { brand, last4: saved.last4 })}
      </p>
      <p className="mt-1 text-sm text-slate-700">
        {waiting ? fmt(s.savedBody, { merchant: view.merchant.name }) : s.nothingToDo}
      </p>
    </div>
  );
}
