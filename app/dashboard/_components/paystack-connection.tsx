"use client";

import { useMutation } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { type FormEvent, useEffect, useId, useRef, useState } from "react";
import { CopyButton } from "@/components/ui/copy-button";
import { Field } from "@/components/ui/field";
import { alertError, buttonSecondary, inputClass } from "@/components/ui/styles";
import { consoleCall, fieldErrors } from "./api";
import { buttonDanger, buttonSmall } from "./styles";

export type PaystackConnectionView = {
  mode: "test" | "live";
  connected: boolean;
  keyHint: string | null;
  connectedAt: string | null;
  updatedAt: string | null;
  webhookUrl: string;
  callbackUrl: string;
  deploymentDefault: boolean;
};

function when(iso: string | null): string {
  return iso
    ? new Date(iso).toLocaleString("en-GB", { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" }) +
        " UTC"
    : "";
}

/**
 * Settings → Live payments: the merchant's own Paystack account for the console's mode. Paste the secret
 * key; Paystack is asked once whether it takes it; it is kept encrypted and never shown again (only its last
 * four characters). Replace or remove it; the two addresses to set in Paystack's dashboard, with copy buttons.
 */
export function PaystackConnection({ initial }: { initial: PaystackConnectionView }) {
  const router = useRouter();
  const id = useId();
  const [key, setKey] = useState("");
  const [replacing, setReplacing] = useState(false);
  const [confirmingRemove, setConfirmingRemove] = useState(false);
  const inputRef = useRef<HTMLInputElement>(null);
  const statusRef = useRef<HTMLDivElement>(null);
  const removeRef = useRef<HTMLButtonElement>(null);
  const view = initial;
  const connect = useMutation({
    mutationFn: (secretKey: string) =>
      consoleCall<PaystackConnectionView>("PUT", "paystack", { mode: view.mode, secretKey }),
    onSuccess: () => {
      setKey("");
      setReplacing(false);
      router.refresh();
    },
  });
  const remove = useMutation({
    mutationFn: () => consoleCall<PaystackConnectionView>("POST", "paystack/disconnect", { mode: view.mode }),
    onSuccess: () => {
      setConfirmingRemove(false);
      router.refresh();
    },
  });
  // Focus follows the control that replaced the one it was on.
  useEffect(() => {
    if (replacing) inputRef.current?.focus();
  }, [replacing]);
  useEffect(() => {
    if (connect.isSuccess || remove.isSuccess) statusRef.current?.focus();
  }, [connect.isSuccess, remove.isSuccess]);
  useEffect(() => {
    if (confirmingRemove) removeRef.current?.focus();
  }, [confirmingRemove]);

  const errors = fieldErrors(connect.error, ["secretKey", "mode"]);
  const prefix = `sk_${view.mode}_`;

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (connect.isPending) return;
    connect.mutate(key.trim());
  }

  const form = (
    <form onSubmit={onSubmit} noValidate className="mt-3 space-y-3">
      <Field
        id={`${id}-key`}
        label="Paystack secret key"
        hint={`Starts with ${prefix}. In Paystack's dashboard: Settings → API Keys & Webhooks. It is checked with Paystack, stored encrypted and never shown again.`}
        error={errors.byField.secretKey ?? null}
      >
        {(aria) => (
          <input
            {...aria}
            ref={inputRef}
            type="password"
            autoComplete="off"
            spellCheck={false}
            placeholder={`${prefix}…`}
            value={key}
            onChange={(e) => setKey(e.target.value)}
            className={`${inputClass} font-mono`}
          />
        )}
      </Field>
      {errors.rest && (
        <p role="alert" className={alertError}>
          {errors.rest}
        </p>
      )}
      <div className="flex flex-wrap gap-2">
        <button type="submit" className={buttonSmall} disabled={connect.isPending}>
          {connect.isPending
            ? "Checking with Paystack…"
            : view.connected
              ? "Replace key"
              : "Connect Paystack"}
        </button>
        {replacing && (
          <button type="button" className={buttonSecondary} onClick={() => setReplacing(false)}>
            Cancel
          </button>
        )}
      </div>
    </form>
  );

  return (
    <div className="space-y-4 text-sm">
      <div ref={statusRef} tabIndex={-1} role="status" className="focus:outline-none">
        {view.connected ? (
          <dl className="space-y-1">
            <div className="flex flex-wrap gap-2">
              <dt className="font-medium text-slate-600">Paystack</dt>
              <dd className="font-semibold text-emerald-800">Connected</dd>
            </div>
            <div className="flex flex-wrap gap-2">
              <dt className="font-medium text-slate-600">Secret key</dt>
              <dd>
                <code className="font-mono">{view.keyHint}</code>
              </dd>
            </div>
            <div className="flex flex-wrap gap-2">
              <dt className="font-medium text-slate-600">Since</dt>
              <dd>{when(view.connectedAt)}</dd>
            </div>
          </dl>
        ) : (
          <p className="text-slate-700">
            {view.mode === "live"
              ? "Connect your Paystack account to take live payments: card, bank transfer, bank payment and USSD go through it, and the money settles in your Paystack balance."
              : "Test payments use the Paygate sandbox. Connect a Paystack test key to take them through Paystack's test mode instead."}{" "}
            {view.deploymentDefault
              ? "Until you do, they go through this deployment's own Paystack account."
              : view.mode === "live"
                ? "Until you do, live payments are refused (live_not_connected)."
                : ""}
          </p>
        )}
      </div>
      {!view.connected || replacing ? (
        form
      ) : (
        <div className="flex flex-wrap gap-2">
          <button type="button" className={buttonSecondary} onClick={() => setReplacing(true)}>
            Replace key
          </button>
          {confirmingRemove ? (
            <div className="w-full rounded-lg bg-red-50 p-3 ring-1 ring-red-200">
              <p className="text-red-900">
                Remove the Paystack key? New {view.mode} payments{" "}
                {view.deploymentDefault
                  ? "go through this deployment's Paystack account"
                  : view.mode === "live"
                    ? "are refused"
                    : "use the sandbox"}
                , and payments made with this key can no longer be refunded until it is connected again.
              </p>
              <div className="mt-3 flex flex-wrap gap-2">
                <button
                  ref={removeRef}
                  type="button"
                  className={buttonDanger}
                  disabled={remove.isPending}
                  onClick={() => remove.mutate()}
                >
                  {remove.isPending ? "Removing…" : "Yes, remove the key"}
                </button>
                <button type="button" className={buttonSecondary} onClick={() => setConfirmingRemove(false)}>
                  Cancel
                </button>
              </div>
            </div>
          ) : (
            <button type="button" className={buttonSecondary} onClick={() => setConfirmingRemove(true)}>
              Remove
            </button>
          )}
        </div>
      )}
      {remove.isError && (
        <p role="alert" className={alertError}>
          {fieldErrors(remove.error, []).rest}
        </p>
      )}
      <div className="space-y-3 rounded-lg bg-slate-50 p-3 ring-1 ring-slate-200">
        <p className="text-slate-700">In Paystack's dashboard (Settings → API Keys & Webhooks), set:</p>
        <dl className="space-y-3">
          {(
            [
              ["Webhook URL", view.webhookUrl],
              ["Callback URL", view.callbackUrl],
            ] as const
          ).map(([label, value]) => (
            <div key={label}>
              <dt className="font-medium text-slate-800">{label}</dt>
              <dd className="mt-1 flex flex-wrap items-center gap-2">
                <code className="break-all font-mono text-slate-900">{value}</code>
                <CopyButton value={value} what={label} />
              </dd>
            </div>
          ))}
        </dl>
      </div>
    </div>
  );
}
