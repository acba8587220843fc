"use client";

import { useMutation } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useId, useState } from "react";
import { Field } from "@/components/ui/field";
import { alertError, buttonSecondary, inputClass } from "@/components/ui/styles";
import { EVENT_TYPES } from "@/lib/webhooks/event-types";
import { consoleCall, fieldErrors, messageOf } from "./api";
import { SecretOnce, ShownOnceWarning } from "./secret-once";
import { buttonSmall } from "./styles";

type Saved = { url: string; secret: string };

/**
 * Save the mode's endpoint URL (its secret shown once when made or rolled) and roll the secret. The events
 * offered are the service's one list (lib/webhooks/event-types.ts): the form saves exactly the ticked ones,
 * so a type missing here would be unsubscribed by every save.
 */
export function WebhookForm({
  mode,
  url: initial,
  exists,
  events: initialEvents,
}: {
  mode: "test" | "live";
  url: string;
  exists: boolean;
  events: string[];
}) {
  const id = useId();
  const router = useRouter();
  const [url, setUrl] = useState(initial);
  const [events, setEvents] = useState<string[]>(initialEvents);
  const [secret, setSecret] = useState<string | null>(null);
  const save = useMutation({
    mutationFn: () => consoleCall<Saved>("PUT", "webhook", { mode, url, events }),
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
  const { byField, rest } = fieldErrors(save.error, ["url", "mode", "events"]);
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
        <fieldset>
          <legend className="text-sm font-medium text-slate-800">Events sent to it</legend>
          <div className="mt-1 flex flex-wrap gap-x-4 gap-y-2">
            {EVENT_TYPES.map((t) => (
              <label key={t} className="flex items-center gap-2 text-sm">
                <input
                  type="checkbox"
                  checked={events.includes(t)}
                  onChange={(e) =>
                    setEvents((list) =>
                      e.target.checked
                        ? EVENT_TYPES.filter((x) => x === t || list.includes(x))
                        : list.filter((x) => x !== t),
                    )
                  }
                />
                <code className="font-mono">{t}</code>
              </label>
            ))}
          </div>
          {byField.events && <p className="mt-1 text-sm font-medium text-red-700">{byField.events}</p>}
        </fieldset>
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
