"use client";

import { buttonSecondary } from "@/components/ui/styles";
import { fmt } from "@/lib/i18n/locales";
import { type ApiError, checkoutApi } from "./api";
import { useCheckout } from "./context";
import { errorText } from "./error-text";
import { useCharge } from "./use-charge";

export type SandboxAction = { label: string; run: (key: { idempotencyKey: string }) => Promise<unknown> };

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
          <button
            key={action.label}
            type="button"
            disabled={run.isPending}
            onClick={() => run.mutate(i)}
            className={buttonSecondary}
          >
            {action.label}
          </button>
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
export function SandboxAuthorization({ title }: { title: string }) {
  const { view, t } = useCheckout();
  return (
    <SandboxActions
      title={title}
      actions={[
        {
          label: t.sandbox.approve,
          run: (key) => checkoutApi.sandboxAuthorize(view.accessCode, "approve", key),
        },
        {
          label: t.sandbox.decline,
          run: (key) => checkoutApi.sandboxAuthorize(view.accessCode, "decline", key),
        },
      ]}
    />
  );
}
