"use client";

import { type ChangeEvent, type RefObject, useCallback, useEffect, useRef, useState } from "react";
import {
  brandOf,
  type CardFieldError,
  cardNumberError,
  cvvError,
  digitsOf,
  expiryError,
  formatCardNumber,
  formatExpiry,
} from "@/lib/checkout/card";

export type CardFields = { number: string; expiry: string; cvv: string };
export type CardField = keyof CardFields;

const EMPTY: CardFields = { number: "", expiry: "", cvv: "" };
const UNTOUCHED: Record<CardField, boolean> = { number: false, expiry: false, cvv: false };

/**
 * The card form's fields: what was typed (grouped as printed on the card), which were left, and their
 * mistakes. Kept by the panel, so going to the OTP step and back keeps the card number.
 */
export function useCardFields(
  formRef: RefObject<HTMLFormElement | null>,
  words: Record<CardFieldError, string>,
) {
  const [fields, setFields] = useState<CardFields>(EMPTY);
  const [touched, setTouched] = useState(UNTOUCHED);

  // What the customer typed into the server-rendered form before the page's code arrived is kept, not
  // wiped by the first render (a fast typist on a slow phone).
  useEffect(() => {
    const typed = (field: CardField) =>
      formRef.current?.querySelector<HTMLInputElement>(`[data-field="${field}"]`)?.value ?? "";
    const early = { number: typed("number"), expiry: typed("expiry"), cvv: typed("cvv") };
    if (early.number || early.expiry || early.cvv) {
      setFields({
        number: formatCardNumber(early.number),
        expiry: formatExpiry(early.expiry),
        cvv: digitsOf(early.cvv),
      });
    }
  }, [formRef]);

  const brand = brandOf(digitsOf(fields.number));
  const errors = {
    number: cardNumberError(fields.number),
    expiry: expiryError(fields.expiry),
    cvv: cvvError(fields.cvv, brand),
  };
  const shown = (name: CardField) => {
    const error = touched[name] ? errors[name] : null;
    return error && words[error];
  };

  /**
   * A field shows its error once the customer leaves it with something typed, but never while a press is under
   * way: leaving a field by tapping something else (Language, Cancel payment, Test cards) blurs it on the
   * press. An error shows in the space kept for it under the fields (ReservedErrors in card-form.tsx), so one
   * error moves nothing; a second one at once may take more room and push what is below down between press and
   * release, so the release would land elsewhere and the tap be lost. The error waits until the press is over
   * (after its click). A press is known from its pointerdown, which comes before the blur in every browser.
   * Leaving by pressing Pay shows nothing on the way: the submit shows every error at once anyway.
   */
  const pressing = useRef<"none" | "pay" | "other">("none");
  const waiting = useRef(new Set<CardField>());
  const fieldsNow = useRef(fields);
  fieldsNow.current = fields;
  const show = useCallback((names: CardField[]) => {
    setTouched((t) => {
      const next = { ...t };
      for (const name of names) next[name] = fieldsNow.current[name] !== "" || t[name];
      return next;
    });
  }, []);
  useEffect(() => {
    const onDown = () => {
      if (pressing.current === "none") pressing.current = "other";
    };
    const onUp = () => {
      // After the click this press makes, which the browser dispatches right after pointerup.
      setTimeout(() => {
        const wasPay = pressing.current === "pay";
        pressing.current = "none";
        const due = [...waiting.current];
        waiting.current.clear();
        if (!wasPay && due.length) show(due);
      }, 0);
    };
    document.addEventListener("pointerdown", onDown, true);
    document.addEventListener("pointerup", onUp, true);
    document.addEventListener("pointercancel", onUp, true);
    return () => {
      document.removeEventListener("pointerdown", onDown, true);
      document.removeEventListener("pointerup", onUp, true);
      document.removeEventListener("pointercancel", onUp, true);
    };
  }, [show]);
  function pressPay() {
    pressing.current = "pay";
  }
  function touch(field: CardField) {
    if (pressing.current !== "none") waiting.current.add(field);
    else show([field]);
  }

  function onNumber(event: ChangeEvent<HTMLInputElement>) {
    const input = event.target;
    const caret = input.selectionStart ?? input.value.length;
    const atEnd = caret >= input.value.length;
    const digitsBefore = digitsOf(input.value.slice(0, caret)).length;
    const formatted = formatCardNumber(input.value);
    setFields((f) => ({ ...f, number: formatted }));
    if (atEnd) return;
    // Keep the caret after the same digit when editing in the middle of a grouped number.
    requestAnimationFrame(() => {
      let pos = 0;
      for (let seen = 0; pos < formatted.length && seen < digitsBefore; pos++) {
        if (/\d/.test(formatted[pos] ?? "")) seen++;
      }
      input.setSelectionRange(pos, pos);
    });
  }

  return {
    fields,
    brand,
    errors,
    shown,
    touch,
    pressPay,
    onNumber,
    setExpiry: (value: string) => setFields((f) => ({ ...f, expiry: formatExpiry(value) })),
    setCvv: (value: string) => setFields((f) => ({ ...f, cvv: digitsOf(value) })),
    touchAll: () => setTouched({ number: true, expiry: true, cvv: true }),
    /** Back from the OTP step: the number and expiry stay, the CVV is typed again. */
    clearCvv: () => {
      setFields((f) => ({ ...f, cvv: "" }));
      setTouched(UNTOUCHED);
    },
    clearAll: () => {
      setFields(EMPTY);
      setTouched(UNTOUCHED);
    },
  };
}

export type CardFieldsState = ReturnType<typeof useCardFields>;
