"use client";

import type { FormEvent, ReactNode } from "react";
import type { CheckoutIntent } from "@/lib/checkout/submit-checkout-form";
import { submitCheckout } from "../actions";
import { useCheckout } from "./context";

/**
 * A form of the checkout page. Once the page's code runs, `onSubmit` handles it (the API, with an
 * idempotency key per attempt) and prevents the browser's own submission. Before that, or with JavaScript off,
 * the browser posts it to the server action `submitCheckout`, which runs the same verb and shows the page
 * again at the step it led to: a tap is never lost, and never answered by an error page.
 */
export function CheckoutForm({
  intent,
  onSubmit,
  className,
  children,
  formRef,
  fields,
  hidden,
}: {
  intent: CheckoutIntent;
  onSubmit?: (event: FormEvent<HTMLFormElement>) => void;
  className?: string;
  children: ReactNode;
  formRef?: React.Ref<HTMLFormElement>;
  /** Extra hidden fields the posted form needs (the hydrated path has them in state). */
  fields?: Record<string, string>;
  /** Kept, with what was typed, but not shown (the card form under a decline). */
  hidden?: boolean;
}) {
  const { view, locale, embed } = useCheckout();
  return (
    <form
      ref={formRef}
      action={submitCheckout}
      onSubmit={onSubmit}
      noValidate
      className={className}
      hidden={hidden}
    >
      <input type="hidden" name="accessCode" value={view.accessCode} />
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="lang" value={locale} />
      {/* Embedded: the page the form leads to is framed as this one is (proxy.ts checks the origin again). */}
      {embed && <input type="hidden" name="embedOrigin" value={embed.origin} />}
      {Object.entries(fields ?? {}).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      {children}
    </form>
  );
}
