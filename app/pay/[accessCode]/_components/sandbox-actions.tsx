"use client";

import { buttonSecondary } from "@/components/ui/styles";
import type { CheckoutIntent } from "@/lib/checkout/submit-checkout-form";
import { fmt } from "@/lib/i18n/locales";
import { type ApiError, checkoutApi } from "./api";
import { CheckoutForm } from "./checkout-form";
import { useCheckout } from "./context";
import { errorText } from "./error-text";
import { useCharge } from "./use-charge";

export type SandboxAction = {
  label: string;
  run: (key: { idempotencyKey: string }) => Promise<unknown>;
  /** The same action as a form the browser posts itself (checkout-form.tsx), with its fields. */
  intent: CheckoutIntent;
  fields?: Record<string, string>;
};

/**
 * Test mode only: buttons that play the bank's or the customer's part (a transfer arriving, an approval in
 * the banking app), through the page's access-code sandbox doors, so a person or a browser test can finish
 * any flow from the page. Never rendered in live mode.
 */
export function SandboxActions({ title, actions }: { title: string; actions: SandboxAction[] }) {
  const { view, refresh, t, locale } = useCheckout();
  const run = useCharge((index: number, key) => actions[index]?.run(key) ?? Promise.resolve(null), {
    onSettled: () => refresh(),
  });
  if (!view.sandbox) return null;
  const error = run.error as ApiError | null;
  return (
    <section
      aria-label={t.sandbox.region}
      className="mt-5 rounded-lg border border-dashed border-amber-400 bg-amber-50 p-4"
    >
      <p className="text-sm font-semibold text-amber-900">{fmt(t.sandbox.heading, { title })}</p>
      <div className="mt-3 flex flex-wrap gap-2">
        {actions.map((action, i) => (
          <CheckoutForm
            key={action.label}
            intent={action.intent}
            fields={action.fields}
            onSubmit={(event) => {
              event.preventDefault();
              run.mutate(i);
            }}
          >
            <button type="submit" disabled={run.isPending} className={buttonSecondary}>
              {action.label}
            </button>
          </CheckoutForm>
        ))}
      </div>
      {error && (
        <p role="alert" className="mt-2 text-sm text-red-800">
          {errorText(error, t, locale)}
        </p>
      )}
    </section>
  );
}

/** The customer's answer to a bank-app (bank payment) or phone (USSD) request, played from the page. */
export function SandboxAuthorization({
  title,
  channel,
}: {
  title: string;
  channel: "bank_payment" | "ussd";
}) {
  const { view, t } = useCheckout();
  return (
    <SandboxActions
      title={title}
      actions={[
        {
          label: t.sandbox.approve,
          intent: "sandbox_approve",
          fields: { channel },
          run: (key) => checkoutApi.sandboxAuthorize(view.accessCode, "approve", key),
        },
        {
          label: t.sandbox.decline,
          intent: "sandbox_decline",
          fields: { channel },
          run: (key) => checkoutApi.sandboxAuthorize(view.accessCode, "decline", key),
        },
      ]}
    />
  );
}
