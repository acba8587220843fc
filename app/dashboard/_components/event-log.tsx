"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useId, useState } from "react";
import { alertError, buttonSecondary, inputClass } from "@/components/ui/styles";
import { EVENT_TYPES } from "@/lib/webhooks/event-types";
import { consoleCall, messageOf } from "./api";
import { badgeTest, selectClass, table, td, th, thead } from "./styles";
import { TableScroll } from "./table-scroll";

type Attempt = {
  attempt: number;
  trigger: string;
  status: string;
  dueAt: string | null;
  url: string;
  responseStatus: number | null;
  latencyMs: number | null;
  responseExcerpt: string | null;
  error: string | null;
  finishedAt: string | null;
};
type ConsoleEvent = {
  id: string;
  type: string;
  reference: string | null;
  createdAt: string;
  delivered: boolean;
  attempts: Attempt[];
};

function time(iso: string | null): string {
  if (!iso) return "—";
  return (
    new Date(iso).toLocaleString("en-GB", { timeZone: "UTC", dateStyle: "medium", timeStyle: "medium" }) +
    " UTC"
  );
}

/**
 * Webhook events with every delivery attempt, refreshed while something is in flight, each with a redeliver
 * button. On a payment's page the reference is fixed; on the Webhooks page the merchant filters by type,
 * outcome and reference.
 */
export function EventLog({
  mode,
  reference,
  canRedeliver = true,
}: {
  mode: "test" | "live";
  reference?: string;
  /** Whether the member's role may redeliver (webhooks.write); the button is not shown otherwise. */
  canRedeliver?: boolean;
}) {
  const id = useId();
  const [type, setType] = useState("");
  const [delivered, setDelivered] = useState("");
  const [ref, setRef] = useState("");
  const [applied, setApplied] = useState({ type: "", delivered: "", ref: "" });
  const params = new URLSearchParams({ limit: "20" });
  if (reference) params.set("reference", reference);
  else if (applied.ref.trim()) params.set("reference", applied.ref.trim());
  if (applied.type) params.set("type", applied.type);
  if (applied.delivered) params.set("delivered", applied.delivered);
  const key = ["events", mode, params.toString()];
  const queryClient = useQueryClient();
  const events = useQuery({
    queryKey: key,
    queryFn: () => consoleCall<{ events: ConsoleEvent[] }>("GET", `events?${params}`),
    refetchInterval: (q) =>
      q.state.data?.events.some((e) =>
        e.attempts.some((a) => a.status === "pending" || a.status === "sending"),
      )
        ? 1500
        : 5000,
  });
  const redeliver = useMutation({
    mutationFn: (eventId: string) => consoleCall("POST", `events/${eventId}/redeliver`),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ["events", mode] }),
  });

  return (
    <div className="space-y-4">
      {!reference && (
        <form
          className="grid gap-3 sm:grid-cols-4"
          aria-label="Filter deliveries"
          onSubmit={(e) => {
            e.preventDefault();
            setApplied({ type, delivered, ref });
          }}
        >
          <div>
            <label htmlFor={`${id}-type`} className="block text-sm font-medium text-slate-800">
              Event type
            </label>
            <select
              id={`${id}-type`}
              value={type}
              onChange={(e) => setType(e.target.value)}
              className={selectClass}
            >
              <option value="">Any event</option>
              {EVENT_TYPES.map((t) => (
                <option key={t} value={t}>
                  {t}
                </option>
              ))}
            </select>
          </div>
          <div>
            <label htmlFor={`${id}-delivered`} className="block text-sm font-medium text-slate-800">
              Outcome
            </label>
            <select
              id={`${id}-delivered`}
              value={delivered}
              onChange={(e) => setDelivered(e.target.value)}
              className={selectClass}
            >
              <option value="">Delivered or not</option>
              <option value="true">Delivered</option>
              <option value="false">Not delivered</option>
            </select>
          </div>
          <div>
            <label htmlFor={`${id}-ref`} className="block text-sm font-medium text-slate-800">
              Reference
            </label>
            <input
              id={`${id}-ref`}
              value={ref}
              onChange={(e) => setRef(e.target.value)}
              className={inputClass}
            />
          </div>
          <div className="flex items-end">
            <button type="submit" className={buttonSecondary}>
              Filter
            </button>
          </div>
        </form>
      )}
      {redeliver.isError && (
        <p role="alert" className={alertError}>
          {messageOf(redeliver.error)}
        </p>
      )}
      {events.isPending ? (
        <p role="status" className="text-sm text-slate-700">
          Loading events…
        </p>
      ) : events.isError ? (
        <div role="alert" className={alertError}>
          <p>Could not load the events: {messageOf(events.error)}</p>
          <button type="button" className={`${buttonSecondary} mt-2`} onClick={() => events.refetch()}>
            Try again
          </button>
        </div>
      ) : events.data.events.length === 0 ? (
        <p className="rounded-lg bg-slate-50 p-4 text-sm text-slate-700 ring-1 ring-slate-200">
          {reference ? "No webhook events for this payment yet." : "No webhook events match."}
        </p>
      ) : (
        <ul className="space-y-4" aria-label="Webhook events">
          {events.data.events.map((e) => (
            <li key={e.id} className="rounded-lg p-3 ring-1 ring-slate-200" data-event-type={e.type}>
              <div className="flex flex-wrap items-center justify-between gap-2">
                <div className="flex flex-wrap items-center gap-2">
                  <code className="font-mono text-sm font-semibold">{e.type}</code>
                  {mode === "test" && <span className={badgeTest}>Test</span>}
                  <span
                    className={`rounded-full px-2 py-0.5 text-xs font-semibold ${
                      e.delivered ? "bg-emerald-100 text-emerald-900" : "bg-red-100 text-red-900"
                    }`}
                  >
                    {e.delivered ? "Delivered" : "Not delivered"}
                  </span>
                </div>
                {canRedeliver && (
                  <button
                    type="button"
                    className={`${buttonSecondary} px-3 py-1.5`}
                    disabled={redeliver.isPending && redeliver.variables === e.id}
                    onClick={() => redeliver.mutate(e.id)}
                    aria-label={`Redeliver ${e.type} ${e.reference ?? e.id}`}
                  >
                    Redeliver
                  </button>
                )}
              </div>
              <p className="mt-1 text-sm text-slate-600">
                {e.reference && <span className="mr-2">{e.reference}</span>}
                {time(e.createdAt)}
              </p>
              {e.attempts.length === 0 ? (
                <p className="mt-2 text-sm text-slate-700">No delivery attempt (no endpoint was set).</p>
              ) : (
                <TableScroll label={`Delivery attempts of ${e.type}`} className="mt-2">
                  <table className={table}>
                    <caption className="sr-only">Delivery attempts of {e.type}</caption>
                    <thead className={thead}>
                      <tr>
                        <th scope="col" className={th}>
                          Attempt
                        </th>
                        <th scope="col" className={th}>
                          Result
                        </th>
                        <th scope="col" className={th}>
                          Time
                        </th>
                        <th scope="col" className={th}>
                          Response
                        </th>
                      </tr>
                    </thead>
                    <tbody className="divide-y divide-slate-100">
                      {e.attempts.map((a) => (
                        <tr key={a.attempt} data-attempt={a.attempt} data-status={a.status}>
                          <td data-label="Attempt" className={td}>
                            #{a.attempt} <span className="text-slate-600">({a.trigger})</span>
                          </td>
                          <td data-label="Result" className={td}>
                            {a.status}
                            {a.responseStatus !== null && ` · HTTP ${a.responseStatus}`}
                            {a.latencyMs !== null && ` · ${a.latencyMs} ms`}
                          </td>
                          <td data-label="Time" className={td}>
                            {time(a.finishedAt ?? a.dueAt)}
                          </td>
                          <td
                            data-label="Response"
                            className={`${td} max-w-xs truncate`}
                            title={a.responseExcerpt ?? a.error ?? ""}
                          >
                            {a.error ?? a.responseExcerpt ?? "—"}
                          </td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                </TableScroll>
              )}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
