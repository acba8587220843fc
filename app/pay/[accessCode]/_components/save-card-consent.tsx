"use client";

import { fmt } from "@/lib/i18n/locales";
import { useCheckout } from "./context";

/**
 * What the card form says about keeping the card, on a payment whose merchant asked to (initialize's
 * `saveCard`): a box the customer may tick, unticked, with what it means (`optional`), or the terms of the
 * payment (`required`). The words are the catalogue's (lib/i18n, `checkout.savedCards`), as the server keeps
 * them with the consent (lib/channels/consent-words.ts). The box is a plain checkbox named `saveCard` inside
 * the card form, so a form posted without the page's code carries it too. A chunk of its own, loaded only on a
 * payment that saves the card (card-form.tsx), so every other checkout's first load is without it.
 */
export function SaveCardConsent({ id }: { id: string }) {
  const { view, t } = useCheckout();
  const s = t.savedCards;
  const merchant = view.merchant.name;
  if (view.saveCard === "required") {
    return (
      <p
        className="rounded-lg bg-slate-50 p-3 text-sm text-slate-800 ring-1 ring-slate-200"
        data-testid="save-card-terms"
      >
        {fmt(s.required, { merchant })}
      </p>
    );
  }
  if (view.saveCard !== "optional") return null;
  return (
    <div className="flex items-start gap-3">
      <input
        id={`${id}-save-card`}
        type="checkbox"
        name="saveCard"
        aria-describedby={`${id}-save-card-hint`}
        className="mt-0.5 size-5 shrink-0 rounded border-slate-400 accent-[var(--brand,#0f766e)] focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-slate-900"
      />
      <div className="min-w-0">
        <label htmlFor={`${id}-save-card`} className="block text-sm font-medium break-words text-slate-900">
          {fmt(s.optional, { merchant })}
        </label>
        <p id={`${id}-save-card-hint`} className="mt-0.5 text-sm break-words text-slate-600">
          {fmt(s.optionalHint, { merchant })}
        </p>
      </div>
    </div>
  );
}

/** The saved-card test cards (test mode, on a payment that saves the card): docs/testing.md "Saved cards". */
export function SavedCardTestCards() {
  const { t } = useCheckout();
  const s = t.savedCards;
  return (
    <details className="mt-2 text-sm text-slate-700">
      <summary className="cursor-pointer font-medium">{s.testCards}</summary>
      <ul className="mt-2 space-y-1">
        <li>
          <span className="font-mono">5555 5555 5555 4444</span>: {s.testSecond}
        </li>
        <li>
          <span className="font-mono">4000 0000 0000 0341</span>: {s.testSavesThenDeclines}
        </li>
        <li>
          <span className="font-mono">4000 0027 6000 3184</span>: {s.testSavesThenOtp}
        </li>
      </ul>
    </details>
  );
}
