"use client";

import { useMutation } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useId, useState } from "react";
import { Field } from "@/components/ui/field";
import { alertError, buttonSecondary, inputClass } from "@/components/ui/styles";
import { consoleCall, fieldErrors, messageOf } from "./api";
import { SecretOnce, ShownOnceWarning } from "./secret-once";
import { buttonSmall } from "./styles";

type Saved = { url: string; secret: string };

/** Save the mode's endpoint URL (its secret shown once when made or rolled) and roll the secret. */
export function WebhookForm({
  mode,
  url: initial,
  exists,
}: {
  mode: "test" | "live";
  url: string;
  exists: boolean;
}) {
  const id = useId();
  const router = useRouter();
  const [url, setUrl] = useState(initial);
  const [secret, setSecret] = useState<string | null>(null);
  const save = useMutation({
    mutationFn: () => consoleCall<Saved>("PUT", "webhook", { mode, url }),
    onSuccess: (d) => {
      if (!exists) setSecret(d.secret);
      router.refresh();
    },
  });
  const roll = useMutation({
    mutationFn: () => consoleCall<Saved>("POST", "webhook/roll-secret", { mode }),
    onSuccess: (d) => {
      setSecret(d.secret);
      router.refresh();
    },
  });
  const ping = useMutation({
    mutationFn: () =>
      consoleCall<{
        delivered: boolean;
        responseStatus: number | null;
        latencyMs: number;
        responseExcerpt: string;
        error: string | null;
      }>("POST", "webhook/test", { mode }),
  });
  const { byField, rest } = fieldErrors(save.error, ["url", "mode"]);
  return (
    <div className="space-y-4">
      <form
        className="space-y-3"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          save.mutate();
        }}
      >
        <Field
          id={`${id}-url`}
          label="Endpoint URL"
          hint="Paygate POSTs every event here, signed with the endpoint's secret (Standard Webhooks)."
          error={byField.url}
        >
          {(aria) => (
            <input
              {...aria}
              type="url"
              name="url"
              required
              value={url}
              onChange={(e) => setUrl(e.target.value)}
              className={inputClass}
              placeholder="https://example.com/webhooks/paygate"
            />
          )}
        </Field>
        {(rest || byField.mode) && (
          <p role="alert" className={alertError}>
            {rest ?? byField.mode}
          </p>
        )}
        <div className="flex flex-wrap gap-2">
          <button type="submit" className={buttonSmall} disabled={save.isPending}>
            {save.isPending ? "Saving…" : "Save endpoint"}
          </button>
          {exists && (
            <button
              type="button"
              className={buttonSecondary}
              disabled={roll.isPending}
              onClick={() => roll.mutate()}
            >
              {roll.isPending ? "Rolling…" : "Roll secret"}
            </button>
          )}
          {exists && (
            <button
              type="button"
              className={buttonSecondary}
              disabled={ping.isPending}
              onClick={() => ping.mutate()}
            >
              {ping.isPending ? "Sending…" : "Send a test event"}
            </button>
          )}
        </div>
        {save.isSuccess && !save.isPending && (
          <p role="status" className="text-sm text-emerald-800">
            Endpoint saved.
          </p>
        )}
        {ping.data && (
          <p
            role="status"
            className={ping.data.delivered ? "text-sm text-emerald-800" : alertError}
            data-test-event
          >
            {ping.data.delivered ? "Test event delivered" : "Test event not delivered"}
            {ping.data.responseStatus !== null && `: HTTP ${ping.data.responseStatus}`}
            {` in ${ping.data.latencyMs} ms`}
            {ping.data.error && ` (${ping.data.error})`}
            {ping.data.responseExcerpt && `. Answer: ${ping.data.responseExcerpt}`}
          </p>
        )}
        {ping.isError && (
          <p role="alert" className={alertError}>
            {messageOf(ping.error)}
          </p>
        )}
        {roll.isError && (
          <p role="alert" className={alertError}>
            {messageOf(roll.error)}
          </p>
        )}
      </form>
      {secret && (
        <div className="space-y-3">
          <ShownOnceWarning>
            Copy the signing secret now and put it in your server&apos;s settings: it will not be shown again.
            After a roll, the previous secret keeps signing for 24 hours.
          </ShownOnceWarning>
          <SecretOnce id="webhook-secret" label="Signing secret" value={secret} />
        </div>
      )}
    </div>
  );
}
