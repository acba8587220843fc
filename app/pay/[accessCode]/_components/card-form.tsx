"use client";

import dynamic from "next/dynamic";
import { type ComponentType, type FormEvent, type RefObject, useId, useRef } from "react";
import { Field, ReservedErrors } from "@/components/ui/field";
import { StepHeading } from "@/components/ui/step-heading";
import { buttonPrimary, inputClass } from "@/components/ui/styles";
import { BRAND_LABEL, digitsOf, parseExpiry } from "@/lib/checkout/card";
import { isZeroAmount } from "@/lib/i18n/format";
import { fmt } from "@/lib/i18n/locales";
import { type CardResult, checkoutApi } from "./api";
import { type CardBody, consentOf } from "./card-body";
import { type CardProblem, declineOf } from "./card-decline";
import { type CardProblemNoticeProps, useFormWaitsForChoice } from "./card-problem-choice";
import { CheckoutForm } from "./checkout-form";
import { useCheckout } from "./context";
import { errorText } from "./error-text";
import { Spinner } from "./spinner";
import type { CardField, CardFieldsState } from "./use-card-fields";
import { useCharge } from "./use-charge";
import { withAmount } from "./with-amount";

// Only on a payment that saves the card (initialize's `saveCard`): chunks of their own, rendered on the server
// into the page that needs them, and out of every other checkout's first load.
const SaveCardConsent = dynamic(() => import("./save-card-consent").then((m) => m.SaveCardConsent));
const SavedCardTestCards = dynamic(() => import("./save-card-consent").then((m) => m.SavedCardTestCards));

/**
 * A decline's notice, a chunk of its own out of the first load: fetched once the page is idle (card-panel.tsx,
 * with the card's next steps) and with the charge it may answer (onSubmit), so it is here by the time a decline is, and then rendered as it is (through next/dynamic it would
 * suspend a moment even with its chunk at hand). next/dynamic renders it only on a page the server renders with
 * a problem already (a form posted without the page's code), and preloads its chunk with that page.
 */
let LoadedNotice: ComponentType<CardProblemNoticeProps> | undefined;
export const loadNotice = () =>
  import("./card-problem").then((m) => {
    LoadedNotice ??= m.CardProblemNotice;
  });
const DynamicNotice = dynamic(() => import("./card-problem").then((m) => m.CardProblemNotice));

/** The card's first step: number, expiry and CVV, the problem of the last try, and the test cards. */
export function CardForm({
  card,
  formRef,
  problem,
  onProblem,
  onNext,
}: {
  card: CardFieldsState;
  formRef: RefObject<HTMLFormElement | null>;
  problem: CardProblem | null;
  onProblem: (problem: CardProblem | null) => void;
  /** The card was paid, or its network asks for a next step (or is still deciding). */
  onNext: (result: CardResult) => void;
}) {
  const { view, t, locale, money } = useCheckout();
  const c = t.card;
  const id = useId();
  const numberRef = useRef<HTMLInputElement>(null);
  const total = money(view.totals.card);
  const { fields, brand, errors, shown } = card;
  const formWaits = useFormWaitsForChoice(problem);
  const Notice = LoadedNotice ?? DynamicNotice;

  const charge = useCharge((body: CardBody, key) => checkoutApi.card(view.accessCode, body, key), {
    onSuccess: async (result) => {
      if (result.status === "failed") return onProblem({ ...declineOf(result, t, locale), at: Date.now() });
      onNext(result);
    },
    onError: (err) =>
      onProblem({ title: c.notCompleted, message: errorText(err, t, locale), at: Date.now() }),
  });

  function tryAgain() {
    onProblem(null);
    card.clearAll();
    requestAnimationFrame(() => numberRef.current?.focus());
  }

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (charge.isPending) return;
    card.touchAll();
    const first = (Object.keys(errors) as CardField[]).find((k) => errors[k]);
    if (first) {
      formRef.current?.querySelector<HTMLElement>(`[data-field="${first}"]`)?.focus();
      return;
    }
    const expiry = parseExpiry(fields.expiry);
    if (!expiry) return;
    onProblem(null);
    void loadNotice();
    charge.mutate({
      number: digitsOf(fields.number),
      expiryMonth: expiry.month,
      expiryYear: expiry.year,
      cvv: fields.cvv,
      ...consentOf(formRef.current, view.saveCard, locale),
    });
  }

  return (
    <div key="card">
      <StepHeading>{c.title}</StepHeading>
      <p className="mt-1 text-sm text-slate-700">
        {withAmount(
          !isZeroAmount(view.fees.card) && !view.merchantBearsCost
            ? fmt(c.youPayWithFee, { fee: money(view.fees.card) })
            : c.youPay,
          "{total}",
          <strong className="font-semibold text-slate-900">{total}</strong>,
        )}
      </p>
      {problem && <Notice problem={problem} onTryAgain={tryAgain} />}
      <CheckoutForm
        intent="card"
        formRef={formRef}
        onSubmit={onSubmit}
        className="mt-4 space-y-4"
        hidden={formWaits}
      >
        <Field
          id={`${id}-number`}
          label={c.number}
          error={shown("number")}
          errorShownElsewhere
          aside={
            <span className="text-sm font-medium text-slate-700" aria-live="polite">
              {BRAND_LABEL[brand]}
            </span>
          }
        >
          {(aria) => (
            <input
              {...aria}
              ref={numberRef}
              data-field="number"
              name="number"
              inputMode="numeric"
              autoComplete="cc-number"
              placeholder="1234 5678 9012 3456"
              maxLength={23}
              value={fields.number}
              onChange={card.onNumber}
              onBlur={() => card.touch("number")}
              className={`${inputClass} tabular-nums`}
            />
          )}
        </Field>
        <div>
          <div className="grid grid-cols-2 gap-3">
            <Field id={`${id}-expiry`} label={c.expiry} error={shown("expiry")} errorShownElsewhere>
              {(aria) => (
                <input
                  {...aria}
                  data-field="expiry"
                  name="expiry"
                  inputMode="numeric"
                  autoComplete="cc-exp"
                  placeholder={c.expiryPlaceholder}
                  maxLength={5}
                  value={fields.expiry}
                  onChange={(e) => card.setExpiry(e.target.value)}
                  onBlur={() => card.touch("expiry")}
                  className={`${inputClass} tabular-nums`}
                />
              )}
            </Field>
            <Field id={`${id}-cvv`} label={c.cvv} error={shown("cvv")} errorShownElsewhere>
              {(aria) => (
                <input
                  {...aria}
                  data-field="cvv"
                  name="cvv"
                  inputMode="numeric"
                  autoComplete="cc-csc"
                  placeholder={brand === "amex" ? c.cvvPlaceholder4 : c.cvvPlaceholder3}
                  maxLength={4}
                  value={fields.cvv}
                  onChange={(e) => card.setCvv(e.target.value)}
                  onBlur={() => card.touch("cvv")}
                  className={`${inputClass} tabular-nums`}
                />
              )}
            </Field>
          </div>
          {/* The fields' errors under them, in a space kept for them: an error appearing as a field is left
            (by a tap on what is below) moves nothing below. */}
          <ReservedErrors
            messages={Object.values(c.fieldErrors)}
            errors={(["number", "expiry", "cvv"] as const).map((name) => ({
              id: `${id}-${name}`,
              error: shown(name),
            }))}
          />
        </div>
        {view.saveCard && <SaveCardConsent id={id} />}
        <button
          type="submit"
          disabled={charge.isPending}
          onPointerDown={card.pressPay}
          className={buttonPrimary}
        >
          {charge.isPending ? (
            <>
              <Spinner /> {c.processing}
            </>
          ) : (
            fmt(t.pay, { total })
          )}
        </button>
      </CheckoutForm>
      {view.sandbox && (
        <details className="mt-4 text-sm text-slate-700">
          <summary className="cursor-pointer font-medium">{c.testCards}</summary>
          <ul className="mt-2 space-y-1">
            <li>
              <span className="font-mono">4242 4242 4242 4242</span>: {c.testSucceeds}
            </li>
            <li>
              <span className="font-mono">4000 0000 0000 0002</span>: {c.testDeclined}
            </li>
            <li>
              <span className="font-mono">4000 0000 0000 9995</span>: {c.testInsufficient}
            </li>
            <li>
              <span className="font-mono">4000 0000 0000 3220</span>: {c.testOtp}
            </li>
          </ul>
          <p className="mt-1">{c.testAnyExpiry}</p>
        </details>
      )}
      {view.sandbox && view.saveCard && <SavedCardTestCards />}
    </div>
  );
}
