"use client";

import { useRef, useState } from "react";
import { ApiError, newIdempotencyKey } from "./api";

type ChargeOptions<TVars, TData> = {
  onSuccess?: (data: TData, vars: TVars) => unknown;
  onError?: (error: ApiError, vars: TVars) => unknown;
  onSettled?: (data: TData | undefined, error: ApiError | null, vars: TVars) => unknown;
};

type ChargeState<TData> =
  | { status: "idle"; data: undefined; error: null }
  | { status: "pending"; data: undefined; error: null }
  | { status: "success"; data: TData; error: null }
  | { status: "error"; data: undefined; error: ApiError };

const IDLE = { status: "idle", data: undefined, error: null } as const;

/**
 * A mutation for one charge attempt with its own `Idempotency-Key`. The key is made when the attempt starts
 * and kept only while no answer came back (a network failure, a 409 idempotency_in_progress): sending the
 * same request again then replays the first answer instead of charging twice. Any answer ends the attempt,
 * and the next submit is a new attempt with a new key. Callers also disable the button while pending.
 *
 * It runs as a TanStack Query mutation on the checkout's client (query-client.tsx), like every request of the
 * page, but TanStack Query is loaded with the first submit, not with the page: the panel a customer sees
 * first needs none of it to show or to hydrate.
 */
export function useCharge<TVars, TData>(
  run: (vars: TVars, key: { idempotencyKey: string }) => Promise<TData>,
  options: ChargeOptions<TVars, TData> = {},
) {
  const [state, setState] = useState<ChargeState<TData>>(IDLE);
  const open = useRef<{ key: string; fingerprint: string } | null>(null);
  // Set synchronously on the first click: a second click in the same frame (before React re-renders the
  // button disabled) starts nothing.
  const busy = useRef(false);
  const latest = useRef({ run, options });
  latest.current = { run, options };

  async function attempt(vars: TVars): Promise<TData> {
    const fingerprint = JSON.stringify(vars ?? null);
    if (!open.current || open.current.fingerprint !== fingerprint) {
      open.current = { key: newIdempotencyKey(), fingerprint };
    }
    try {
      const data = await latest.current.run(vars, { idempotencyKey: open.current.key });
      open.current = null;
      return data;
    } catch (err) {
      const unanswered =
        err instanceof ApiError && (err.code === "network_error" || err.code === "idempotency_in_progress");
      if (!unanswered) open.current = null;
      throw err instanceof ApiError ? err : new ApiError("network_error", String(err), 0);
    }
  }

  function mutate(vars: TVars) {
    if (busy.current) return;
    busy.current = true;
    setState({ status: "pending", data: undefined, error: null });
    void (async () => {
      const { onSuccess, onError, onSettled } = latest.current.options;
      try {
        const { runMutation } = await import("./query-client").catch(() => {
          throw new ApiError("network_error", "The page's code could not be loaded.", 0);
        });
        const data = await runMutation(() => attempt(vars));
        busy.current = false;
        setState({ status: "success", data, error: null });
        await onSuccess?.(data, vars);
        await onSettled?.(data, null, vars);
      } catch (err) {
        busy.current = false;
        const error = err instanceof ApiError ? err : new ApiError("network_error", String(err), 0);
        setState({ status: "error", data: undefined, error });
        await onError?.(error, vars);
        await onSettled?.(undefined, error, vars);
      }
    })();
  }

  return {
    mutate,
    reset: () => setState(IDLE),
    data: state.data,
    error: state.error,
    status: state.status,
    isIdle: state.status === "idle",
    isPending: state.status === "pending",
    isSuccess: state.status === "success",
    isError: state.status === "error",
  };
}
